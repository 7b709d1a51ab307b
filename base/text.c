/*
 * text.c - printable UTF-8 (text.h).  RFC 3629's well-formed sequences, as
 * in Unicode's table 3-7; O(n).
 */
#include "text.h"

#include <stdio.h>
#include <string.h>

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
