/*
 * text.c - printable UTF-8 (text.h).  RFC 3629's well-formed sequences, as
 * in Unicode's table 3-7; O(n).
 */
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

size_t text_char_start(const char *s, size_t at)
{
    while (at > 0 && ((unsigned char)s[at] & 0xC0) == 0x80)
        at--;
    return at;
}

size_t text_char_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    unsigned lo = 0x80, hi = 0xbf, cp;

    if (c >= 0x20 && c < 0x7f)
        return 1;
    if (c < 0xc2 || c > 0xf4)          /* controls, DEL, continuation, overlong, > U+10FFFF */
        return 0;
    len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    if (len > n)
        return 0;
    if (c == 0xe0)
        lo = 0xa0;                      /* overlong 3-byte */
    else if (c == 0xed)
        hi = 0x9f;                      /* UTF-16 surrogates */
    else if (c == 0xf0)
        lo = 0x90;                      /* overlong 4-byte */
    else if (c == 0xf4)
        hi = 0x8f;                      /* above U+10FFFF */
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if (len == 2) {
        cp = ((c & 0x1fu) << 6) | (s[1] & 0x3fu);
        if (cp < 0xa0)                  /* C1 controls U+0080..U+009F */
            return 0;
    }
    return len;
}

size_t text_bad_at(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, k;

    while (i < n) {
        k = text_char_len(u + i, n - i);
        if (!k)
            return i;
        i += k;
    }
    return n;
}

int text_ok(const char *s)
{
    size_t n = strlen(s);

    return text_bad_at(s, n) == n;
}

size_t text_escape(char *out, size_t cap, const char *in)
{
    const unsigned char *u = (const unsigned char *)in;
    size_t n = strlen(in), i = 0, o = 0, k;

    if (!cap)
        return 0;
    while (i < n) {
        k = text_char_len(u + i, n - i);
        if (k) {
            if (o + k >= cap)
                break;
            memcpy(out + o, u + i, k);
            o += k;
            i += k;
        } else {
            if (o + 4 >= cap)
                break;
            snprintf(out + o, 5, "\\x%02x", u[i]);
            o += 4;
            i++;
        }
    }
    out[o] = '\0';
    return o;
}

/* The code point of the well-formed sequence of len bytes at s. */
static unsigned decode(const unsigned char *s, size_t len)
{
    static const unsigned lead_mask[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
    unsigned cp = s[0] & lead_mask[len];

    for (size_t i = 1; i < len; i++)
        cp = (cp << 6) | (s[i] & 0x3fu);
    return cp;
}

static int cp_width(unsigned cp)
{
    static const unsigned wide[][2] = {
        {0x1100, 0x115f}, {0x2e80, 0x303e}, {0x3041, 0x33ff}, {0x3400, 0x4dbf},
        {0x4e00, 0x9fff}, {0xa000, 0xa4cf}, {0xac00, 0xd7a3}, {0xf900, 0xfaff},
        {0xfe30, 0xfe4f}, {0xff00, 0xff60}, {0xffe0, 0xffe6}, {0x1f300, 0x1f64f},
        {0x1f900, 0x1f9ff}, {0x20000, 0x2fffd}, {0x30000, 0x3fffd},
    };
    static const unsigned zero[][2] = {
        {0x0300, 0x036f}, {0x200b, 0x200f}, {0x20d0, 0x20ff}, {0xfe00, 0xfe0f}, {0xfe20, 0xfe2f},
    };

    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
        if (cp >= zero[i][0] && cp <= zero[i][1])
            return 0;
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
        if (cp >= wide[i][0] && cp <= wide[i][1])
            return 2;
    return 1;
}

size_t text_width(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s), i = 0, w = 0, k;

    while (i < n) {
        k = text_char_len(u + i, n - i);
        if (!k) {
            w++;
            i++;
            continue;
        }
        w += (size_t)cp_width(decode(u + i, k));
        i += k;
    }
    return w;
}

void text_eprintf(const char *fmt, ...)
{
    char raw[2048], out[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    text_escape(out, sizeof out, raw);
    fprintf(stderr, "%s\n", out);
}
