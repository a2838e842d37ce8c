/* Small helpers shared by policies: an intrusive doubly linked list and
 * string comparison, with no libc. */
#ifndef GS_POLICY_UTIL_H
#define GS_POLICY_UTIL_H

#include "hal.h"

struct plist {
	struct plist *next, *prev;
};

static inline void plist_init(struct plist *head)
{
	head->next = head->prev = head;
}

static inline int plist_empty(const struct plist *head)
{
	return head->next == head;
}

static inline void plist_add_tail(struct plist *head, struct plist *n)
{
	n->prev = head->prev;
	n->next = head;
	head->prev->next = n;
	head->prev = n;
}

static inline void plist_del(struct plist *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n->prev = n;
}

/* The struct that embeds list node `ptr` as `member`. */
#define plist_entry(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

#define plist_for_each(pos, head) \
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

static inline int pstr_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

#endif
