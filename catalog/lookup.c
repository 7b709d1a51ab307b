/*
 * lookup.c - names of the catalog: entries found by name, nearest-name
 * suggestions for a typo, instance families, the intra-node link parsed
 * from its free text, and the closed sets (number formats, model families).
 */
#include "catalog.h"
#include "../base/names.h"
#include "../base/xmem.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Small string helpers (ASCII only, no locale).
 */

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Does hay contain needle, ignoring case? */
static int icontains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);

    if (n == 0)
        return 1;
    for (; *hay; hay++) {
        size_t k = 0;
        while (k < n && hay[k] &&
               lower((unsigned char)hay[k]) == lower((unsigned char)needle[k]))
            k++;
        if (k == n)
            return 1;
    }
    return 0;
}

#undef FIND

/* Case-insensitive Levenshtein distance: O(|a| |b|) time, O(|b|) memory. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), i, j, d;
    size_t *prev = x_malloc((nb + 1) * sizeof *prev);
    size_t *cur = x_malloc((nb + 1) * sizeof *cur);

    for (j = 0; j <= nb; j++)
        prev[j] = j;
    for (i = 1; i <= na; i++) {
        size_t *tmp;
        cur[0] = i;
        for (j = 1; j <= nb; j++) {
            size_t sub = prev[j - 1] +
                         (lower((unsigned char)a[i - 1]) != lower((unsigned char)b[j - 1]));
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        tmp = prev;
        prev = cur;
        cur = tmp;
    }
    d = prev[nb];
    x_free(prev);
    x_free(cur);
    return d;
}

/* Up to 3 names close to q, best first: distance <= max(2, |q|/3) or q a
 * substring (case-insensitive); ties keep catalog order.  O(n |q| |name|). */
static void suggest(const char *base, int n, size_t stride, const char *q, char *buf,
                    size_t len)
{
    size_t best_d[3], limit, o = 0;
    int best_i[3], nbest = 0, k, j;

    if (len == 0)
        return;
    buf[0] = '\0';
    if (!q || !*q)
        return;
    limit = strlen(q) / 3 > 2 ? strlen(q) / 3 : 2;
    for (k = 0; k < n; k++) {
        const char *name = base + (size_t)k * stride;
        size_t d = edit_distance(name, q);
        if (d > limit && !icontains(name, q))
            continue;
        /* insert into the sorted top 3; equal distance keeps the earlier name */
        for (j = nbest; j > 0 && best_d[j - 1] > d; j--) {
            if (j < 3) {
                best_d[j] = best_d[j - 1];
                best_i[j] = best_i[j - 1];
            }
        }
        if (j < 3) {
            best_d[j] = d;
            best_i[j] = k;
            if (nbest < 3)
                nbest++;
        }
    }
    for (j = 0; j < nbest && o < len; j++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s", j ? ", " : "",
                              base + (size_t)best_i[j] * stride);
}

size_t catalog_family_len(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? (size_t)(dot - name) : strlen(name);
}

int catalog_name_matches(const char *pat, const char *type)
{
    size_t n = strlen(pat);

    if (strcmp(pat, type) == 0)
        return 1;
    if (catalog_family_len(type) == n && strncmp(pat, type, n) == 0)
        return 1;
    /* names without a dot ("a2-highgpu-8g"): the family is what precedes a dash */
    return !strchr(type, '.') && strncmp(pat, type, n) == 0 && type[n] == '-';
}

void catalog_suggest_instance(const struct catalog *cat, const char *name, char *buf, size_t len)
{
    int n = cat ? cat->ninstances : 0;

    suggest(n ? cat->instances[0].name : "", n, sizeof(struct cat_instance), name, buf, len);
}

void catalog_suggest_model(const struct catalog *cat, const char *name, char *buf, size_t len)
{
    int n = cat ? cat->nmodels : 0;

    suggest(n ? cat->models[0].name : "", n, sizeof(struct cat_model), name, buf, len);
}

/* catalog.h: a price date, YYYY-MM-DD. */
int catalog_date_ok(const char *s)
{
    int y, m, d, n = 0;

    return strlen(s) == 10 && sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) == 3 && n == 10 &&
           y >= 2000 && y <= 2100 && m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

/*
 * The link column is free text such as "NVSwitch, NVLink 3.0 (600 GB/s)" or
 * "PCIe only (T4 has no NVLink)".  Text in parentheses is commentary and is
 * not matched (otherwise "no NVLink" would read as NVLink).  Then, ignoring
 * case: NVSwitch wins over NVLink, NVLink over PCIe, PCIe over "none";
 * empty or unrecognised text is unknown.
 */
enum cat_link catalog_parse_link(const char *text)
{
    char *outside;
    size_t o = 0;
    int depth = 0;
    enum cat_link l = CAT_LINK_UNKNOWN;

    if (!text)
        return CAT_LINK_UNKNOWN;
    outside = x_malloc(strlen(text) + 1);
    for (; *text; text++) {
        if (*text == '(')
            depth++;
        else if (*text == ')' && depth > 0)
            depth--;
        else if (depth == 0)
            outside[o++] = *text;
    }
    outside[o] = '\0';
    if (icontains(outside, "nvswitch"))
        l = CAT_LINK_NVSWITCH;
    else if (icontains(outside, "nvlink"))
        l = CAT_LINK_NVLINK;
    else if (icontains(outside, "pcie"))
        l = CAT_LINK_PCIE;
    else if (icontains(outside, "none"))
        l = CAT_LINK_NONE;
    x_free(outside);
    return l;
}

const char *catalog_link_name(enum cat_link l)
{
    switch (l) {
    case CAT_LINK_UNKNOWN:  return "unknown";
    case CAT_LINK_NONE:     return "none";
    case CAT_LINK_PCIE:     return "pcie";
    case CAT_LINK_NVLINK:   return "nvlink";
    case CAT_LINK_NVSWITCH: return "nvswitch";
    }
    return "unknown";
}

static const char *const precs[CAT_NPREC + 1] = { "fp32", "tf32", "fp16", "bf16", "fp8", NULL };
static const char *const families[] = { "cnn", "transformer", "ctr", "mlp", NULL };

const char *catalog_prec_name(int p) { return NAMES_AT(precs, p); }
const char *catalog_family_name(int f) { return NAMES_AT(families, f); }
int catalog_prec_parse(const char *name) { return names_parse(catalog_prec_name, name); }
int catalog_family_parse(const char *name) { return names_parse(catalog_family_name, name); }

#define FIND(arr, n, type) \
    (cat ? names_find(arr, n, sizeof(type), offsetof(type, name), name) : NULL)

const struct cat_gpu *catalog_find_gpu(const struct catalog *cat, const char *name)
{
    return FIND(cat->gpus, cat->ngpus, struct cat_gpu);
}

const struct cat_instance *catalog_find_instance(const struct catalog *cat, const char *name)
{
    const struct cat_instance *in = FIND(cat->instances, cat->ninstances, struct cat_instance);
    size_t n = strlen(name);

    if (in || !cat || strchr(name, '@'))
        return in;
    /* a SkyPilot catalog's TYPE@REGION by its type alone: the region with
     * the lowest on-demand price (then the first by name) */
    for (int k = 0; k < cat->ninstances; k++) {
        const struct cat_instance *c = &cat->instances[k];
        if (strncmp(c->name, name, n) != 0 || c->name[n] != '@')
            continue;
        if (!in || (!isnan(c->price_usd_h) &&
                    (isnan(in->price_usd_h) || c->price_usd_h < in->price_usd_h)))
            in = c;
    }
    return in;
}

const struct cat_model *catalog_find_model(const struct catalog *cat, const char *name)
{
    return FIND(cat->models, cat->nmodels, struct cat_model);
}

const struct cat_storage *catalog_find_storage(const struct catalog *cat, const char *name)
{
    return FIND(cat->storage, cat->nstorage, struct cat_storage);
}

int cat_cc_blackwell(int cc) { return cc >= 100 && cc < 110; }
