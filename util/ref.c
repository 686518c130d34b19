// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Reference counts keyed by address (see ref.h): a few live objects at a
 * time, so a locked array is all it takes. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include "util/grow.h"
#include "util/ref.h"

struct ref {
	void *key;
	void (*release)(void *key);
	long count;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ref *refs;
static size_t nrefs, cap;

static struct ref *find(const void *key)
{
	for (size_t i = 0; i < nrefs; i++)
		if (refs[i].key == key)
			return &refs[i];
	return NULL;
}

int bp_ref__init(void *key, void (*release)(void *key))
{
	int err = 0;

	pthread_mutex_lock(&lock);
	if (find(key))
		err = -EEXIST;
	else if (bp_grow((void **)&refs, nrefs, &cap, sizeof(*refs), 8))
		err = -ENOMEM;
	else
		refs[nrefs++] = (struct ref){ .key = key, .release = release, .count = 1 };
	pthread_mutex_unlock(&lock);
	return err;
}

bool bp_ref__get(const void *key)
{
	struct ref *r;

	pthread_mutex_lock(&lock);
	r = find(key);
	if (r)
		r->count++;
	pthread_mutex_unlock(&lock);
	return r;
}

bool bp_ref__put(const void *key)
{
	void (*release)(void *) = NULL;
	void *k = NULL;
	struct ref *r;
	bool found;

	pthread_mutex_lock(&lock);
	r = find(key);
	found = r;
	if (r && !--r->count) {
		release = r->release;
		k = r->key;
		*r = refs[--nrefs];
		if (!nrefs) {
			free(refs);
			refs = NULL;
			cap = 0;
		}
	}
	pthread_mutex_unlock(&lock);
	/* outside the lock: releasing may free other objects of ours */
	if (release)
		release(k);
	return found;
}
