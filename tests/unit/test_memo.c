/*
 * test_memo.c - results kept by the bytes of their inputs (base/memo.h):
 * a key finds its own value only, whole keys compared; a full memo keeps
 * what it has; no memo finds nothing.
 */
#include <string.h>

#include "t.h"
#include "../../base/memo.h"

static void keys_find_their_own_values(void)
{
    struct memo *m = memo_new(1 << 20);
    double a[3] = {1, 2, 3}, b[3] = {1, 2, 3.0000000000000004}, v = 7, w = 9, got;
    const void *p;
    size_t len = 0;
    long hits, n;

    T_CHECK(memo_get(m, a, sizeof a, &len) == NULL, "an empty memo finds nothing");
    memo_put(m, a, sizeof a, &v, sizeof v);
    memo_put(m, b, sizeof b, &w, sizeof w);
    p = memo_get(m, a, sizeof a, &len);
    T_CHECK(p && len == sizeof v, "a stored key is found, its value's length with it");
    if (p) {
        memcpy(&got, p, sizeof got);
        T_NEAR(got, 7, 0, "with its own value");
    }
    p = memo_get(m, b, sizeof b, &len);
    if (p)
        memcpy(&got, p, sizeof got);
    T_CHECK(p && got == 9, "a key one bit apart has its own (got %g)", p ? got : -1);
    T_CHECK(memo_get(m, a, sizeof a - 1, &len) == NULL, "a key's prefix is another key");
    memo_put(m, a, sizeof a, &w, sizeof w);
    p = memo_get(m, a, sizeof a, &len);
    if (p)
        memcpy(&got, p, sizeof got);
    T_CHECK(p && got == 7, "a key put again keeps its first value");
    memo_stats(m, &hits, &n);
    T_CHECK(hits == 3 && n == 2, "3 of 4 lookups found, 2 entries (got %ld, %ld)", hits, n);
    memo_free(m);
}

static void many_keys_grow_the_table(void)
{
    struct memo *m = memo_new(1 << 20);
    int bad = 0;
    long hits, n;

    for (int i = 0; i < 1000; i++)
        memo_put(m, &i, sizeof i, &i, sizeof i);
    for (int i = 0; i < 1000; i++) {
        size_t len;
        const void *p = memo_get(m, &i, sizeof i, &len);
        int got = -1;
        if (p)
            memcpy(&got, p, sizeof got);
        bad += got != i;
    }
    memo_stats(m, &hits, &n);
    T_CHECK(bad == 0 && n == 1000, "1,000 keys each find their value (%d wrong, %ld held)", bad,
            n);
    memo_free(m);
}

static void a_full_memo_takes_no_more(void)
{
    struct memo *m = memo_new(64);
    char k1[24] = "first", k2[24] = "second", val[16] = "x";
    size_t len;
    long hits, n;

    memo_put(m, k1, sizeof k1, val, sizeof val);     /* 40 of 64 bytes */
    memo_put(m, k2, sizeof k2, val, sizeof val);     /* would be 80 */
    T_CHECK(memo_get(m, k1, sizeof k1, &len) != NULL, "what fits is kept");
    T_CHECK(memo_get(m, k2, sizeof k2, &len) == NULL, "past the bytes allowed nothing is added");
    memo_stats(m, &hits, &n);
    T_CHECK(n == 1, "one entry held (got %ld)", n);
    memo_free(m);
    T_CHECK(memo_get(NULL, k1, sizeof k1, &len) == NULL, "no memo finds nothing");
    memo_put(NULL, k1, sizeof k1, val, sizeof val);
    memo_free(NULL);
    memo_stats(NULL, &hits, &n);
    T_CHECK(hits == 0 && n == 0, "and no memo holds nothing");
}

int main(void)
{
    T_RUN(keys_find_their_own_values);
    T_RUN(many_keys_grow_the_table);
    T_RUN(a_full_memo_takes_no_more);
    return T_DONE();
}
