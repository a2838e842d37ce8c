/* Runs the fuzz target over files given on the command line (the
 * regression corpus and the shipped configs), without libFuzzer, so that
 * `make test` replays every input that once crashed. */
#include <glib.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int i, n = 0;

	for (i = 1; i < argc; i++) {
		gchar *data;
		gsize len;

		if (!g_file_get_contents(argv[i], &data, &len, NULL)) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 1;
		}
		LLVMFuzzerTestOneInput((const uint8_t *)data, len);
		g_free(data);
		n++;
	}
	printf("fuzz replay: %d passed, 0 failed\n", n);
	return 0;
}
