/*
 * memo.c - results kept by the bytes of their inputs (memo.h).
 *
 * Open addressing over a power-of-two table of entries, each one block:
 * its hash, the key's and the value's lengths, then the key and the value.
 * The table doubles when it is half full.
 */
#include "memo.h"
#include "xmem.h"

#include <stdint.h>
#include <string.h>

struct memo_ent {
    uint64_t hash;
    size_t klen, vlen;
    /* the key's klen bytes, then the value's vlen */
};

struct memo {
    struct memo_ent **slot;
    size_t cap, n;              /* slots (a power of two), entries */
    size_t bytes, max_bytes;    /* keys' and values' bytes held, the most allowed */
    long hits;
};

/* FNV-1a, 64 bits. */
static uint64_t hash_of(const void *key, size_t klen)
{
    const unsigned char *p = key;
    uint64_t h = 14695981039346656037u;

    for (size_t i = 0; i < klen; i++) {
        h ^= p[i];
        h *= 1099511628211u;
    }
    return h;
}

static unsigned char *ent_key(const struct memo_ent *e)
{
    return (unsigned char *)(e + 1);
}

struct memo *memo_new(size_t max_bytes)
{
    struct memo *m = x_calloc(1, sizeof *m);

    m->cap = 64;
    m->slot = x_calloc(m->cap, sizeof *m->slot);
    m->max_bytes = max_bytes;
    return m;
}

void memo_free(struct memo *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->cap; i++)
        x_free(m->slot[i]);
    x_free(m->slot);
    x_free(m);
}

/* The slot that holds key, or the empty one where it would go. */
static size_t find(const struct memo *m, uint64_t h, const void *key, size_t klen)
{
    size_t i = (size_t)h & (m->cap - 1);

    for (;;) {
        const struct memo_ent *e = m->slot[i];
        if (!e || (e->hash == h && e->klen == klen && memcmp(ent_key(e), key, klen) == 0))
            return i;
        i = (i + 1) & (m->cap - 1);
    }
}

const void *memo_get(struct memo *m, const void *key, size_t klen, size_t *vlen)
{
    const struct memo_ent *e;

    if (!m)
        return NULL;
    e = m->slot[find(m, hash_of(key, klen), key, klen)];
    if (!e)
        return NULL;
    m->hits++;
    if (vlen)
        *vlen = e->vlen;
    return ent_key(e) + e->klen;
}

static void grow(struct memo *m)
{
    struct memo_ent **old = m->slot;
    size_t ocap = m->cap;

    m->cap *= 2;
    m->slot = x_calloc(m->cap, sizeof *m->slot);
    for (size_t i = 0; i < ocap; i++)
        if (old[i])
            m->slot[find(m, old[i]->hash, ent_key(old[i]), old[i]->klen)] = old[i];
    x_free(old);
}

void memo_put(struct memo *m, const void *key, size_t klen, const void *value, size_t vlen)
{
    uint64_t h;
    size_t i;
    struct memo_ent *e;

    if (!m || m->bytes + klen + vlen > m->max_bytes)
        return;
    h = hash_of(key, klen);
    i = find(m, h, key, klen);
    if (m->slot[i])
        return;
    e = x_malloc(sizeof *e + klen + vlen);
    e->hash = h;
    e->klen = klen;
    e->vlen = vlen;
    memcpy(ent_key(e), key, klen);
    memcpy(ent_key(e) + klen, value, vlen);
    m->slot[i] = e;
    m->n++;
    m->bytes += klen + vlen;
    if (2 * m->n > m->cap)
        grow(m);
}

void memo_stats(const struct memo *m, long *hits, long *entries)
{
    *hits = m ? m->hits : 0;
    *entries = m ? (long)m->n : 0;
}
