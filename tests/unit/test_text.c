/*
 * test_text.c - printable UTF-8 (base/text.h) and the error record that
 * escapes what is not (dt_errf).
 */
#include <string.h>

#include "t.h"
#include "../../base/text.h"
#include "../../base/xmem.h"

static void printable_utf8_is_kept_the_rest_escaped(void)
{
    char out[128];

    text_escape(out, sizeof out, "plain ASCII, caf\xc3\xa9, \xe2\x82\xac, \xf0\x9f\x99\x82");
    T_CHECK(!strcmp(out, "plain ASCII, caf\xc3\xa9, \xe2\x82\xac, \xf0\x9f\x99\x82"),
            "ASCII and 2-, 3- and 4-byte characters pass as they are (got %s)", out);
    text_escape(out, sizeof out, "a\x07" "b\nc\x1b[31m\x7f");
    T_CHECK(!strcmp(out, "a\\x07b\\x0ac\\x1b[31m\\x7f"), "controls and DEL become \\xNN (got %s)",
            out);
    text_escape(out, sizeof out, "\xff\xfe \xc0\xaf \xed\xa0\x80 \xc2\x85 \xe2\x82");
    T_CHECK(!strcmp(out, "\\xff\\xfe \\xc0\\xaf \\xed\\xa0\\x80 \\xc2\\x85 \\xe2\\x82"),
            "invalid bytes, overlong forms, surrogates, C1 controls and a cut sequence are "
            "escaped byte by byte (got %s)", out);
    T_CHECK(text_ok("p3.2xlarge") && !text_ok("p3\n") && !text_ok("\xff"),
            "text_ok tells printable one-line UTF-8 from the rest");
}

static void a_full_buffer_is_cut_at_a_character(void)
{
    char out[8];

    text_escape(out, sizeof out, "abc\xe2\x82\xac\xe2\x82\xac");
    T_CHECK(!strcmp(out, "abc\xe2\x82\xac"), "cut before a character that does not fit (got %s)",
            out);
    text_escape(out, sizeof out, "abcd\x07");
    T_CHECK(!strcmp(out, "abcd"), "and before an escape that does not fit (got %s)", out);
}

static void an_error_message_is_one_printable_line(void)
{
    struct dt_err e;

    dt_errf(&e, "f.csv:2:1: name: found \"%s\"", "two\nlines\x1b[2J\xff");
    T_CHECK(!strcmp(e.msg, "f.csv:2:1: name: found \"two\\x0alines\\x1b[2J\\xff\"") &&
                text_ok(e.msg), "dt_errf escapes what an input put in the message (got %s)",
            e.msg);
}

static void wide_characters_take_two_columns(void)
{
    T_CHECK(text_width("p3.2xlarge") == 10, "ASCII: one column a character");
    T_CHECK(text_width("\xe8\xa1\xa8\xe6\xa0\xbc") == 4, "two CJK characters take 4 columns (got %zu)",
            text_width("\xe8\xa1\xa8\xe6\xa0\xbc"));
    T_CHECK(text_width("caf\xc3\xa9 \xf0\x9f\x99\x82") == 7, "e-acute 1, an emoji 2 (got %zu)",
            text_width("caf\xc3\xa9 \xf0\x9f\x99\x82"));
    T_CHECK(text_width("e\xcc\x81") == 1, "a combining accent takes none (got %zu)",
            text_width("e\xcc\x81"));
}

int main(void)
{
    T_RUN(printable_utf8_is_kept_the_rest_escaped);
    T_RUN(a_full_buffer_is_cut_at_a_character);
    T_RUN(an_error_message_is_one_printable_line);
    T_RUN(wide_characters_take_two_columns);
    return T_DONE();
}
