/* A point's record (its row for sweep.csv) as bytes, for the pipe from a
 * pool's worker to the pool (sweep_pool.c): the pool then takes the row
 * from there instead of reading the point.json the worker wrote with
 * json-glib, a sixth of the pool's own CPU on a sweep of short points,
 * which at -j2 it takes from the workers' cores. The layout: the number
 * of columns, then each column's name and then each cell, every string
 * as its length and its bytes, lengths and the count as 32-bit
 * little-endian numbers. */
#include <string.h>

#include "sim/cli/sweep.h"
#include "sim/cli/sweep_alone.h"

static void put_u32(GByteArray *out, guint32 v)
{
	guint32 le = GUINT32_TO_LE(v);

	g_byte_array_append(out, (const guint8 *)&le, sizeof(le));
}

static void put_strings(GByteArray *out, const GPtrArray *strings)
{
	guint i;

	for (i = 0; i < strings->len; i++) {
		const char *s = g_ptr_array_index(strings, i);
		size_t len = strlen(s);

		put_u32(out, (guint32)len);
		g_byte_array_append(out, (const guint8 *)s, (guint)len);
	}
}

void gs_point_record_pack(const struct gs_point_record *rec,
			  GByteArray *out)
{
	put_u32(out, rec->columns->len);
	put_strings(out, rec->columns);
	put_strings(out, rec->cells);
}

/* The next 32-bit number at *at, if whole. */
static bool get_u32(const guint8 *data, gsize len, gsize *at, guint32 *v)
{
	guint32 le;

	if (len - *at < sizeof(le))
		return false;
	memcpy(&le, data + *at, sizeof(le));
	*at += sizeof(le);
	*v = GUINT32_FROM_LE(le);
	return true;
}

/* n strings from *at into a new array; NULL if the bytes end first, or a
 * string is not valid UTF-8 (point.json could not hold it as it is). */
static GPtrArray *get_strings(const guint8 *data, gsize len, gsize *at,
			      guint32 n)
{
	GPtrArray *out = g_ptr_array_new_full(n, g_free);
	guint32 i, slen;

	for (i = 0; i < n; i++) {
		if (!get_u32(data, len, at, &slen) || len - *at < slen ||
		    !g_utf8_validate((const char *)data + *at, slen, NULL)) {
			g_ptr_array_unref(out);
			return NULL;
		}
		g_ptr_array_add(out, g_strndup((const char *)data + *at,
					       slen));
		*at += slen;
	}
	return out;
}

struct gs_point_record *gs_point_record_unpack(const guint8 *data, gsize len)
{
	struct gs_point_record *rec;
	gsize at = 0;
	guint32 n;

	/* every string takes at least its length's four bytes */
	if (!get_u32(data, len, &at, &n) || n > (len - at) / 8)
		return NULL;
	rec = g_new0(struct gs_point_record, 1);
	rec->columns = get_strings(data, len, &at, n);
	rec->cells = rec->columns ? get_strings(data, len, &at, n) : NULL;
	if (!rec->cells || at != len) {
		gs_point_record_free(rec);
		return NULL;
	}
	return rec;
}

/* A standalone run's figures, for the pipe from the worker that made it
 * (sweep_alone.h): the mean and the demand as the bits of their doubles
 * (NAN included), then the violation, if any, as a string as above, after
 * a byte that says whether there is one. */
static void put_u64(GByteArray *out, guint64 v)
{
	guint64 le = GUINT64_TO_LE(v);

	g_byte_array_append(out, (const guint8 *)&le, sizeof(le));
}

static void put_double(GByteArray *out, double d)
{
	guint64 bits;

	memcpy(&bits, &d, sizeof(bits));
	put_u64(out, bits);
}

void gs_standalone_fig_pack(const struct gs_standalone_fig *f,
			    GByteArray *out)
{
	guint8 has = f->violation != NULL;

	put_double(out, f->mean);
	put_double(out, f->demand);
	g_byte_array_append(out, &has, 1);
	if (has) {
		size_t len = strlen(f->violation);

		put_u32(out, (guint32)len);
		g_byte_array_append(out, (const guint8 *)f->violation,
				    (guint)len);
	}
}

static bool get_double(const guint8 *data, gsize len, gsize *at, double *d)
{
	guint64 le;

	if (len - *at < sizeof(le))
		return false;
	memcpy(&le, data + *at, sizeof(le));
	*at += sizeof(le);
	le = GUINT64_FROM_LE(le);
	memcpy(d, &le, sizeof(*d));
	return true;
}

gboolean gs_standalone_fig_unpack(const guint8 *data, gsize len, gsize *at,
				  struct gs_standalone_fig *out)
{
	struct gs_standalone_fig f = { 0 };
	guint32 slen;

	if (!get_double(data, len, at, &f.mean) ||
	    !get_double(data, len, at, &f.demand) || *at == len ||
	    data[*at] > 1)
		return FALSE;
	if (data[(*at)++]) {
		if (!get_u32(data, len, at, &slen) || len - *at < slen ||
		    memchr(data + *at, '\0', slen))
			return FALSE;
		f.violation = g_strndup((const char *)data + *at, slen);
		*at += slen;
	}
	*out = f;
	return TRUE;
}
