/*
 * text.h - text that reaches a terminal or a JSON file: one printable line
 * of valid UTF-8.
 *
 * Input files and flags may hold any bytes.  Loaders refuse names and other
 * strings that are not printable UTF-8 (text_bad), and every error message
 * is escaped on its way into struct dt_err (text_escape), so that a control
 * character or a broken UTF-8 sequence in an input can neither split an
 * error line nor send an escape sequence to the user's terminal.
 */
#ifndef DT_TEXT_H
#define DT_TEXT_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (at most n bytes available) that
 * encodes a printable character: 1 for printable ASCII, 2 to 4 for a
 * well-formed multi-byte character (no overlong forms, no surrogates, at
 * most U+10FFFF, no C1 controls); 0 for a control character, a stray
 * continuation byte or a broken sequence. */
size_t text_char_len(const unsigned char *s, size_t n);

/* The largest offset at most `at` that does not fall inside a UTF-8
 * character of s (continuation bytes skipped back), where a cut keeps
 * whole characters; s has at least at + 1 bytes. */
size_t text_char_start(const char *s, size_t at);

/* The offset of the first byte of s[0..n) that is not part of a printable
 * UTF-8 character, or n when every byte is. */
size_t text_bad_at(const char *s, size_t n);

/* 1 when the NUL-terminated s is printable UTF-8 on one line. */
int text_ok(const char *s);

/* Copy in into out (cap bytes, NUL-terminated), each byte that is not part
 * of a printable UTF-8 character written as \xNN.  Cut at a character
 * boundary when out is full.  Returns the length written. */
size_t text_escape(char *out, size_t cap, const char *in);

/* Columns s takes on a terminal: East Asian wide and fullwidth characters
 * and emoji 2, combining marks 0, any other character 1 (Unicode's
 * EastAsianWidth W and F ranges, in outline); a byte that is not UTF-8
 * counts 1.  Tables align their cells by it. */
size_t text_width(const char *s);

/* Print one line on standard error: printf-style, escaped as text_escape
 * does (at most 2 KiB), then a line feed.  For messages that carry what a
 * user typed (a flag's value, a path) outside struct dt_err. */
void text_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
