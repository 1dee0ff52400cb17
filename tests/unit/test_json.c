/*
 * test_json.c — unit tests of the TLV JSON reader (json.c, spec §2): every
 * dialect feature with exact decoded values, member order and duplicates,
 * positions, each error message with its position, the depth limit, and
 * every rule and resource file of the TLV 2.0.1 corpus when it is present.
 */
#include "base/json.h"

#include "base/buf.h"
#include "check.h"

#include <dirent.h>
#include <sys/stat.h>
#include <time.h>

/* ---- helpers --------------------------------------------------------------- */

/* Prints the input of a case whose checks failed, since the check macros can
 * only point at the helper. */
static void note_failed_case(int before, int line, const char *what)
{
    if (check_failures > before)
        fprintf(stderr, "  ^ in the case at test_json.c:%d: %s\n", line, what);
}

static tj_node *parse_ok_at(int line, const char *text, size_t len)
{
    tj_error err;
    tj_node *root = tj_parse(text, len, &err);
    if (!root) {
        fprintf(stderr, "test_json.c:%d: unexpected error %ld:%ld %s for \"%s\"\n",
                line, err.line, err.col, err.message, text);
        check_failures++;
    }
    return root;
}

#define PARSE_OK(text) parse_ok_at(__LINE__, (text), strlen(text))

static void check_error_at(int at, const char *text, size_t len, long line,
                           long col, const char *message)
{
    int before = check_failures;
    tj_error err;
    tj_node *root = tj_parse(text, len, &err);
    CHECK(root == NULL);
    tj_free(root);
    if (!root) {
        CHECK_STR(err.message, message);
        CHECK_INT(err.line, line);
        CHECK_INT(err.col, col);
    }
    note_failed_case(before, at, text);
}

#define CHECK_ERROR(text, line, col, msg) \
    check_error_at(__LINE__, (text), strlen(text), (line), (col), (msg))
#define CHECK_ERROR_LEN(text, len, line, col, msg) \
    check_error_at(__LINE__, (text), (len), (line), (col), (msg))

/* The n-th child (0-based) of a container, or NULL. */
static const tj_node *nth(const tj_node *n, size_t i)
{
    const tj_node *c = n ? n->child : NULL;
    while (c && i--)
        c = c->next;
    return c;
}

static void check_pos_at(int at, const tj_node *n, long line, long col)
{
    int before = check_failures;
    CHECK(n != NULL);
    if (n) {
        CHECK_INT(n->line, line);
        CHECK_INT(n->col, col);
    }
    note_failed_case(before, at, "position check");
}

static void check_key_pos_at(int at, const tj_node *n, long line, long col)
{
    int before = check_failures;
    CHECK(n != NULL);
    if (n) {
        CHECK_INT(n->key_line, line);
        CHECK_INT(n->key_col, col);
    }
    note_failed_case(before, at, "key position check");
}

#define CHECK_POS(n, line, col) check_pos_at(__LINE__, (n), (line), (col))
#define CHECK_KEY_POS(n, line, col) check_key_pos_at(__LINE__, (n), (line), (col))

/* Parses a document that is one string and checks its decoded bytes. */
static void check_string_at(int at, const char *text, const char *bytes, size_t len)
{
    int before = check_failures;
    tj_node *n = parse_ok_at(at, text, strlen(text));
    if (n) {
        CHECK_INT(n->type, TJ_STRING);
        CHECK_INT(n->str_len, len);
        CHECK(n->str && memcmp(n->str, bytes, len) == 0 && n->str[len] == '\0');
    }
    tj_free(n);
    note_failed_case(before, at, text);
}

#define CHECK_DECODES(text, bytes) \
    check_string_at(__LINE__, (text), (bytes), sizeof(bytes) - 1)

static void check_number_at(int at, const char *text, double value)
{
    int before = check_failures;
    tj_node *n = parse_ok_at(at, text, strlen(text));
    if (n) {
        CHECK_INT(n->type, TJ_NUMBER);
        CHECK_STR(n->str, text);
        CHECK_INT(n->str_len, strlen(text));
        CHECK(n->num == value);
    }
    tj_free(n);
    note_failed_case(before, at, text);
}

#define CHECK_NUMBER(text, value) check_number_at(__LINE__, (text), (value))

/* ---- dialect features ------------------------------------------------------- */

static void test_scalars(void)
{
    static const struct { const char *text; tj_type type; } lits[] = {
        {"true", TJ_TRUE}, {"false", TJ_FALSE}, {"null", TJ_NULL},
    };
    for (size_t i = 0; i < sizeof lits / sizeof lits[0]; i++) {
        tj_node *n = PARSE_OK(lits[i].text);
        if (!n)
            continue;
        CHECK_INT(n->type, lits[i].type);
        CHECK_STR(n->str, lits[i].text);
        CHECK_INT(n->str_len, strlen(lits[i].text));
        CHECK(n->key == NULL && n->child == NULL && n->next == NULL);
        CHECK_POS(n, 1, 1);
        tj_free(n);
    }

    CHECK_NUMBER("0", 0.0);
    CHECK_NUMBER("-0", 0.0);
    CHECK_NUMBER("42", 42.0);
    CHECK_NUMBER("-12", -12.0);
    CHECK_NUMBER("3.25", 3.25);
    CHECK_NUMBER("1e3", 1000.0);
    CHECK_NUMBER("2E+2", 200.0);
    CHECK_NUMBER("-0.5E-2", -0.005);
    CHECK_NUMBER("1234567890123", 1234567890123.0);

    CHECK_DECODES("\"\"", "");
    CHECK_DECODES("\"plain text\"", "plain text");
    CHECK_DECODES("\"タスク1\"", "タスク1");
}

/* Numbers and literals directly followed by a delimiter, no spaces. */
static void test_tight_delimiters(void)
{
    tj_node *n = PARSE_OK("[1,-2.5e1,true,false,null,\"s\",{\"k\":0},[]]");
    CHECK(n && n->count == 8);
    if (n && n->count == 8) {
        CHECK_STR(nth(n, 0)->str, "1");
        CHECK(nth(n, 1)->num == -25.0);
        CHECK_INT(nth(n, 2)->type, TJ_TRUE);
        CHECK_INT(nth(n, 3)->type, TJ_FALSE);
        CHECK_INT(nth(n, 4)->type, TJ_NULL);
        CHECK_STR(nth(n, 5)->str, "s");
        CHECK_INT(nth(n, 6)->count, 1);
        CHECK_STR(nth(n, 6)->child->key, "k");
        CHECK_INT(nth(n, 7)->type, TJ_ARRAY);
        CHECK_INT(nth(n, 7)->count, 0);
        CHECK(nth(n, 7)->child == NULL);
    }
    tj_free(n);
    n = PARSE_OK("{\"a\":1}");
    if (n)
        CHECK(tj_get(n, "a") && tj_get(n, "a")->num == 1.0);
    tj_free(n);
}

static void test_escapes(void)
{
    CHECK_DECODES("\"\\\\ \\\" \\/ \\b \\f \\n \\r \\t\"", "\\ \" / \b \f \n \r \t");
    CHECK_DECODES("\"\\u0041\\u00e9\\u00E9\"", "A\xC3\xA9\xC3\xA9");
    CHECK_DECODES("\"\\u3042\"", "\xE3\x81\x82"); /* あ */
    CHECK_DECODES("\"\\ud83d\\ude00\"", "\xF0\x9F\x98\x80"); /* U+1F600 */
    CHECK_DECODES("\"\\uD834\\uDD1E!\"", "\xF0\x9D\x84\x9E!"); /* U+1D11E */
    /* Not JSON escapes: kept as the two characters, as .cnv regexes need. */
    CHECK_DECODES("\"\\[(?<time>\\d+)\\]\"", "\\[(?<time>\\d+)\\]");
    CHECK_DECODES("\"\\.\\s\\w\\(\\{\\$\\'\"", "\\.\\s\\w\\(\\{\\$\\'");
    CHECK_DECODES("\"\\\\d\"", "\\d"); /* an escaped backslash, then d */
    CHECK_DECODES("\"\\\xE3\x81\x82\"", "\\\xE3\x81\x82"); /* backslash before あ */
    CHECK_DECODES("\"x\\U0041\"", "x\\U0041");
    /* DEL (U+007F) is no control character to JSON: kept. */
    CHECK_DECODES("\"a\x7f\"", "a\x7f");
}

/* Raw control characters (U+0000-U+001F) inside a string are errors, as in
 * JSON, at the character: a NUL cut "u<NUL>s" to "u" and a key
 * "blink<NUL>X" silently replaced "blink" (issue 32.3). \u0000 too: every
 * name and text of the rules is a C string. */
static void test_control_characters(void)
{
    CHECK_ERROR_LEN("{\"TimeScale\":\"u\0s\"}", 18, 1, 16,
                    "a NUL byte (U+0000) inside a string; a name or text cannot hold one");
    CHECK_ERROR_LEN("{\"blink\0X\":1}", 14, 1, 8,
                    "a NUL byte (U+0000) inside a string; a name or text cannot hold one");
    CHECK_ERROR("[\"a\tb\"]", 1, 4,
                "control character U+0009 inside a string; write it as \\t");
    CHECK_ERROR("{\n\"k\":\"a\nb\"}", 2, 5,
                "unterminated string: its line ends before the closing quote (a line end "
                "inside a string is written \\n)");
    CHECK_ERROR("[\"\xE3\x81\x82\r\"]", 1, 2,
                "unterminated string: its line ends before the closing quote (a line end "
                "inside a string is written \\n)");
    CHECK_ERROR("[\"\x01\"]", 1, 3,
                "control character U+0001 inside a string; write it as \\u0001");
    CHECK_ERROR("[\"x\x1f\"]", 1, 4,
                "control character U+001F inside a string; write it as \\u001F");
    CHECK_ERROR("[\"x\b\f\"]", 1, 4,
                "control character U+0008 inside a string; write it as \\b");
    CHECK_ERROR("[\"a\\u0000b\"]", 1, 4,
                "\\u0000 (NUL) inside a string; a name or text cannot hold one");
    CHECK_ERROR("{\"k\\u0000\":1}", 1, 4,
                "\\u0000 (NUL) inside a string; a name or text cannot hold one");
    /* Outside strings they are what they were: tabs and line ends are
     * blanks, other control characters are no value. */
    tj_node *n = PARSE_OK("{\t\"a\"\t:\r\n\"\\t\\n\"}");
    if (n)
        CHECK_STR(tj_get(n, "a")->str, "\t\n");
    tj_free(n);
}

static void test_bom_and_space(void)
{
    tj_node *n = PARSE_OK("\xEF\xBB\xBF{\"a\":1}");
    if (n) {
        CHECK_POS(n, 1, 1); /* the BOM takes no column */
        CHECK_KEY_POS(n->child, 1, 2);
    }
    tj_free(n);

    n = PARSE_OK(" \t\r\n\r\r\n 7 \t\n\r");
    if (n) {
        CHECK_STR(n->str, "7");
        CHECK_POS(n, 4, 2);
    }
    tj_free(n);

    /* A BOM anywhere else is text, not space. */
    CHECK_ERROR(" \xEF\xBB\xBF" "1", 1, 2, "expected a value, found '\xEF\xBB\xBF'");
}

static void test_trailing_commas_and_empty_elements(void)
{
    static const struct { const char *text; size_t count; } cases[] = {
        {"[1,2,]", 2},
        {"[,1,,2,,]", 2},
        {"[ , , ]", 0},
        {"[,]", 0},
        {"[\r\n1 ,\r\n ,\r\n 2 ,\r\n]", 2},
        {"{\"a\":1,}", 1},
        {"{,\"a\":1,,\"b\":2,}", 2},
        {"{,}", 0},
        {"{\"a\":{\"x\":1,},,\n\t\"b\":[3,],}", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int before = check_failures;
        tj_node *n = PARSE_OK(cases[i].text);
        if (n) {
            size_t seen = 0;
            for (const tj_node *c = n->child; c; c = c->next)
                seen++;
            CHECK_INT(n->count, cases[i].count);
            CHECK_INT(seen, cases[i].count);
        }
        tj_free(n);
        note_failed_case(before, __LINE__, cases[i].text);
    }

    tj_node *n = PARSE_OK("[,1,,2,,]");
    if (n) {
        CHECK_STR(nth(n, 0)->str, "1");
        CHECK_STR(nth(n, 1)->str, "2");
    }
    tj_free(n);
}

static void test_member_order_and_duplicates(void)
{
    tj_node *n = PARSE_OK("{\"b\":1,\"a\":2,\"b\":3,\"c\":{},\"a\":\"x\"}");
    if (!n)
        return;
    CHECK_INT(n->type, TJ_OBJECT);
    CHECK_INT(n->count, 5);
    static const char *keys[] = {"b", "a", "b", "c", "a"};
    static const int shadowed[] = {1, 1, 0, 0, 0};
    const tj_node *m = n->child;
    for (size_t i = 0; i < 5 && m; i++, m = m->next) {
        CHECK_STR(m->key, keys[i]);
        CHECK_INT(tj_shadowed(m), shadowed[i]);
    }
    CHECK(m == NULL);

    const tj_node *b = tj_get(n, "b");
    CHECK(b == nth(n, 2));
    CHECK(b && b->num == 3.0);
    const tj_node *a = tj_get(n, "a");
    CHECK(a == nth(n, 4));
    CHECK(a && a->type == TJ_STRING);
    CHECK(tj_get(n, "c") == nth(n, 3));
    CHECK(tj_get(n, "missing") == NULL);
    CHECK(tj_get(n, "") == NULL);
    CHECK(tj_get(NULL, "a") == NULL);
    CHECK(tj_get(nth(n, 0), "a") == NULL); /* not an object */
    CHECK_INT(tj_shadowed(n), 0);          /* the root is no member */
    CHECK_INT(tj_shadowed(NULL), 0);
    tj_free(n);

    /* Each member links the previous one of its key (for messages that
     * name both places). */
    n = PARSE_OK("{\"b\":1,\"a\":2,\"b\":3,\"c\":{},\"a\":\"x\",\"b\":4}");
    if (n) {
        CHECK(nth(n, 0)->earlier == NULL);
        CHECK(nth(n, 1)->earlier == NULL);
        CHECK(nth(n, 2)->earlier == nth(n, 0));
        CHECK(nth(n, 3)->earlier == NULL);
        CHECK(nth(n, 4)->earlier == nth(n, 1));
        CHECK(nth(n, 5)->earlier == nth(n, 2));
        CHECK_INT(tj_shadowed(nth(n, 2)), 1);
        CHECK_INT(tj_shadowed(nth(n, 5)), 0);
    }
    tj_free(n);

    /* Members are found by their decoded names. */
    n = PARSE_OK("{\"\\u0041\":1,\"\\d\":2,\"\":3}");
    if (n) {
        CHECK(tj_get(n, "A") == nth(n, 0));
        CHECK(tj_get(n, "\\d") == nth(n, 1));
        CHECK(tj_get(n, "") == nth(n, 2));
    }
    tj_free(n);

    /* Elements of an array have no key. */
    n = PARSE_OK("[1,2]");
    if (n) {
        CHECK(nth(n, 0)->key == NULL);
        CHECK(tj_get(n, "1") == NULL);
        CHECK_INT(tj_shadowed(nth(n, 0)), 0);
    }
    tj_free(n);
}

static void test_positions(void)
{
    const char *text = "{\r\n"                      /* line 1, CRLF */
                       "  \"a\" : 1,\r"             /* line 2, bare CR */
                       "  \"b\":\n"                 /* line 3, LF */
                       "\t[true, \"x\"],\n"         /* line 4: a tab is 1 */
                       "\"\xC3\xA9\xE3\x81\x82\": \"v\",\r\n" /* line 5: "éあ" */
                       "\"t\":\"a b\\n\\u0041\", \"u\": 2\r\n" /* line 6 */
                       "}";
    tj_node *n = PARSE_OK(text);
    if (!n)
        return;
    CHECK_POS(n, 1, 1);
    CHECK_INT(n->key_line, 0);
    CHECK_INT(n->count, 5);

    const tj_node *a = tj_get(n, "a");
    CHECK_KEY_POS(a, 2, 3);
    CHECK_POS(a, 2, 9);

    const tj_node *b = tj_get(n, "b");
    CHECK_KEY_POS(b, 3, 3);
    CHECK_POS(b, 4, 2);
    CHECK_POS(nth(b, 0), 4, 3);
    CHECK_POS(nth(b, 1), 4, 9);
    CHECK(nth(b, 0) && nth(b, 0)->key_line == 0);

    const tj_node *u = tj_get(n, "\xC3\xA9\xE3\x81\x82");
    CHECK_KEY_POS(u, 5, 1);
    CHECK_POS(u, 5, 7); /* columns count characters, not bytes */

    /* Escapes take their source width: "a b\n\u0041" is 13 columns. */
    const tj_node *t = tj_get(n, "t");
    CHECK_KEY_POS(t, 6, 1);
    CHECK_POS(t, 6, 5);
    CHECK_KEY_POS(tj_get(n, "u"), 6, 20);
    CHECK_POS(tj_get(n, "u"), 6, 25);
    tj_free(n);

    /* LF then CR is two line ends; CR then LF is one. */
    n = PARSE_OK("[\n\r1,\r\n2,\n\n3, \"ab\",\n 4]");
    if (n) {
        CHECK_POS(nth(n, 0), 3, 1);
        CHECK_POS(nth(n, 1), 4, 1);
        CHECK_POS(nth(n, 2), 6, 1);
        CHECK_POS(nth(n, 3), 6, 4);
        CHECK_POS(nth(n, 4), 7, 2);
    }
    tj_free(n);
}

static void test_type_names(void)
{
    CHECK_STR(tj_type_name(TJ_OBJECT), "an object");
    CHECK_STR(tj_type_name(TJ_ARRAY), "an array");
    CHECK_STR(tj_type_name(TJ_STRING), "a string");
    CHECK_STR(tj_type_name(TJ_NUMBER), "a number");
    CHECK_STR(tj_type_name(TJ_TRUE), "a boolean");
    CHECK_STR(tj_type_name(TJ_FALSE), "a boolean");
    CHECK_STR(tj_type_name(TJ_NULL), "null");
}

/* ---- errors ------------------------------------------------------------------- */

static void test_errors(void)
{
    CHECK_ERROR("", 1, 1, "expected a value, found end of file");
    CHECK_ERROR("\xEF\xBB\xBF", 1, 1, "expected a value, found end of file");
    CHECK_ERROR("  \n  ", 2, 3, "expected a value, found end of file");
    CHECK_ERROR("{\"a\" \"b\"}", 1, 6, "expected ':' after the member name, found '\"'");
    CHECK_ERROR("{\"a\"", 1, 5, "expected ':' after the member name, found end of file");
    CHECK_ERROR("{\"a\":1 x}", 1, 8, "expected ',' or '}' after an object member, found 'x'");
    CHECK_ERROR("{\"a\":1", 1, 7, "expected ',' or '}' after an object member, found end of file");
    CHECK_ERROR("{\"a\":1]", 1, 7, "expected ',' or '}' after an object member, found ']'");
    CHECK_ERROR("[1 2]", 1, 4, "expected ',' or ']' after an array element, found '2'");
    CHECK_ERROR("[1}", 1, 3, "expected ',' or ']' after an array element, found '}'");
    CHECK_ERROR("{\"a\":}", 1, 6, "expected a value, found '}'");
    CHECK_ERROR("{\"a\":,1}", 1, 6, "expected a value, found ','");
    CHECK_ERROR("{\"a\":", 1, 6, "expected a value, found end of file");
    CHECK_ERROR("[1,}", 1, 4, "expected a value or ']', found '}'");
    CHECK_ERROR("[", 1, 2, "expected a value or ']', found end of file");
    CHECK_ERROR("[,", 1, 3, "expected a value or ']', found end of file");
    CHECK_ERROR("{a:1}", 1, 2, "expected a quoted member name or '}', found 'a'");
    CHECK_ERROR("{'a':1}", 1, 2, "expected a quoted member name or '}', found '''");
    CHECK_ERROR("{\"a\":1,", 1, 8, "expected a quoted member name or '}', found end of file");
    CHECK_ERROR("{", 1, 2, "expected a quoted member name or '}', found end of file");
    CHECK_ERROR("}", 1, 1, "expected a value, found '}'");

    CHECK_ERROR("\"abc", 1, 1, "unterminated string");
    CHECK_ERROR("[\n  \"abc\\", 2, 3, "unterminated string");
    CHECK_ERROR("{\"a\":1,\r\n \"b\r\n}", 2, 2,
                "unterminated string: its line ends before the closing quote (a line end "
                "inside a string is written \\n)");
    CHECK_ERROR("[\"abc\ndef\"]", 1, 2,
                "unterminated string: its line ends before the closing quote (a line end "
                "inside a string is written \\n)");
    CHECK_ERROR("[\"\\u12g4\"]", 1, 3, "invalid \\u escape");
    CHECK_ERROR("\"\\u12\"", 1, 2, "invalid \\u escape");
    CHECK_ERROR("\"\\u", 1, 2, "invalid \\u escape");
    CHECK_ERROR("\"ab\\ud800x\"", 1, 4, "invalid \\u escape: unpaired UTF-16 surrogate");
    CHECK_ERROR("\"\\ud800\\u0041\"", 1, 2, "invalid \\u escape: unpaired UTF-16 surrogate");
    CHECK_ERROR("\"\\ud800\\ud800\"", 1, 2, "invalid \\u escape: unpaired UTF-16 surrogate");
    CHECK_ERROR("\"\\udc00\"", 1, 2, "invalid \\u escape: unpaired UTF-16 surrogate");

    CHECK_ERROR("{} x", 1, 4, "unexpected text after the end of the document");
    CHECK_ERROR("{}}", 1, 3, "unexpected text after the end of the document");
    CHECK_ERROR("1\r\n2", 2, 1, "unexpected text after the end of the document");
    CHECK_ERROR_LEN("[1]\0", 4, 1, 4, "unexpected text after the end of the document");

    CHECK_ERROR("-", 1, 2, "expected a digit after '-', found end of file");
    CHECK_ERROR("[-x]", 1, 3, "expected a digit after '-', found 'x'");
    CHECK_ERROR("1.", 1, 3, "expected a digit after the decimal point, found end of file");
    CHECK_ERROR("[1.e5]", 1, 4, "expected a digit after the decimal point, found 'e'");
    CHECK_ERROR("1e+", 1, 4, "expected a digit in the exponent, found end of file");
    CHECK_ERROR("01", 1, 2, "expected a delimiter after the number, found '1'");
    CHECK_ERROR("[0x10]", 1, 3, "expected a delimiter after the number, found 'x'");
    CHECK_ERROR("[1.5.2]", 1, 5, "expected a delimiter after the number, found '.'");
    CHECK_ERROR("+1", 1, 1, "expected a value, found '+'");
    CHECK_ERROR(".5", 1, 1, "expected a value, found '.'");
    CHECK_ERROR("1e999", 1, 1, "number out of range");

    CHECK_ERROR("[tru]", 1, 2, "expected a value or ']', found 't'");
    CHECK_ERROR("nullx", 1, 1, "expected a value, found 'n'");
    CHECK_ERROR("True", 1, 1, "expected a value, found 'T'");
    CHECK_ERROR("{\"a\":true false}", 1, 11, "expected ',' or '}' after an object member, found 'f'");

    /* The found character is quoted whole even when it is multi-byte. */
    CHECK_ERROR("{\"\xE3\x81\x82\":1 \xE3\x81\x84}", 1, 8,
                "expected ',' or '}' after an object member, found '\xE3\x81\x84'");
    CHECK_ERROR("[\x01]", 1, 2, "expected a value or ']', found control character U+0001");
    CHECK_ERROR("[\xFF]", 1, 2, "expected a value or ']', found invalid UTF-8 byte 0xFF");

    /* Positions after each kind of line end and after a BOM. */
    CHECK_ERROR("{\r\n\"a\":1,\r\r  x}", 4, 3, "expected a quoted member name or '}', found 'x'");
    CHECK_ERROR("\xEF\xBB\xBF  x", 1, 3, "expected a value, found 'x'");
    CHECK_ERROR("[\"\xE3\x81\x82 \" y", 1, 7, "expected ',' or ']' after an array element, found 'y'");

    /* A caller may pass no error structure. */
    CHECK(tj_parse("[", 1, NULL) == NULL);
    CHECK(tj_parse(NULL, 0, NULL) == NULL);
}

/* ---- nesting -------------------------------------------------------------------- */

/* `depth` opening brackets, then as many closing ones when `closed`. */
static char *nested_arrays(size_t depth, int closed)
{
    char *s = malloc(2 * depth + 1);
    if (!s)
        return NULL;
    memset(s, '[', depth);
    memset(s + depth, ']', closed ? depth : 0);
    s[depth + (closed ? depth : 0)] = '\0';
    return s;
}

static void test_depth(void)
{
    char *s = nested_arrays(TJ_MAX_DEPTH, 1);
    if (s) {
        tj_node *n = PARSE_OK(s);
        const tj_node *inner = n;
        size_t levels = 0;
        while (inner && inner->type == TJ_ARRAY) {
            levels++;
            inner = inner->child;
        }
        CHECK_INT(levels, TJ_MAX_DEPTH);
        tj_free(n);
    }
    free(s);

    s = nested_arrays(TJ_MAX_DEPTH + 1, 1);
    if (s)
        CHECK_ERROR(s, 1, TJ_MAX_DEPTH + 1, "nesting deeper than 200 levels");
    free(s);

    s = nested_arrays(10000, 0);
    if (s)
        CHECK_ERROR(s, 1, TJ_MAX_DEPTH + 1, "nesting deeper than 200 levels");
    free(s);

    /* Objects count too: the 201st '{' of {"a":{"a":... is at column 1001. */
    buf b = BUF_INIT;
    for (int i = 0; i < 10000; i++)
        CHECK(buf_puts(&b, "{\"a\":") == 0);
    CHECK_ERROR(buf_str(&b), 1, 5 * TJ_MAX_DEPTH + 1, "nesting deeper than 200 levels");
    buf_free(&b);
}

/* ---- the TLV 2.0.1 corpus ------------------------------------------------------ */

static tj_node *parse_file(const char *path)
{
    buf text = BUF_INIT;
    if (read_file(path, &text) < 0) {
        fprintf(stderr, "cannot read %s\n", path);
        check_failures++;
        return NULL;
    }
    tj_error err;
    tj_node *root = tj_parse(text.data, text.len, &err);
    if (!root) {
        fprintf(stderr, "%s:%ld:%ld: %s\n", path, err.line, err.col, err.message);
        check_failures++;
    }
    buf_free(&text);
    return root;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Parses every regular file under `dir` whose name ends in `suffix` ("" for
 * all), descending into subfolders; returns how many there were. */
static size_t parse_all(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open %s\n", dir);
        check_failures++;
        return 0;
    }
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        buf path = BUF_INIT;
        struct stat st;
        if (buf_printf(&path, "%s/%s", dir, e->d_name) < 0 || stat(path.data, &st) < 0) {
            buf_free(&path);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            count += parse_all(path.data, suffix);
        } else if (S_ISREG(st.st_mode) && has_suffix(e->d_name, suffix)) {
            tj_free(parse_file(path.data));
            count++;
        }
        buf_free(&path);
    }
    closedir(d);
    return count;
}

static void test_corpus_details(const char *corpus)
{
    buf path = BUF_INIT;
    buf_printf(&path, "%s/rules/asp.cnv", corpus);
    tj_node *n = parse_file(path.data);
    if (n) {
        CHECK_INT(n->count, 1);
        const tj_node *asp = tj_get(n, "asp");
        CHECK(asp && asp->type == TJ_OBJECT);
        if (asp) {
            CHECK_INT(asp->count, 28);
            CHECK_KEY_POS(asp->child, 4, 3); /* after BOM and CRLF lines */
            CHECK_STR(asp->child->key, "\\[(?<time>\\d+)\\] dispatch to task (?<id>\\d+)\\.");
            CHECK_INT(asp->child->type, TJ_ARRAY);
        }
    }
    tj_free(n);

    /* Bare CR line ends (and one leading), an empty element ",\r\r,". */
    buf_clear(&path);
    buf_printf(&path, "%s/logs/fmp_mig/fmp_mig.res", corpus);
    n = parse_file(path.data);
    if (n) {
        CHECK_INT(n->count, 6);
        const tj_node *res = tj_get(n, "Resources");
        CHECK(res && res->type == TJ_OBJECT);
        CHECK_KEY_POS(res, 14, 2);
        CHECK_POS(res, 16, 2);
        if (res)
            CHECK_INT(res->count, 40);
        const tj_node *cyc = tj_get(res, "CYCHDR1");
        CHECK_KEY_POS(cyc, 924, 3);
        CHECK_POS(cyc, 924, 13);
        const tj_node *scale = tj_get(n, "TimeScale");
        CHECK(scale && scale->type == TJ_STRING);
        if (scale)
            CHECK_STR(scale->str, "us");
        const tj_node *radix = tj_get(n, "TimeRadix");
        CHECK(radix && radix->type == TJ_NUMBER && radix->num == 10.0);
        CHECK_INT(tj_get(n, "VisualizeRules") ? tj_get(n, "VisualizeRules")->count : 0, 3);
    }
    tj_free(n);
    buf_free(&path);
}

/* Returns 1 when the corpus was found and checked. */
static int test_corpus(void)
{
    buf dir = BUF_INIT;
    const char *env = getenv("TLV_CORPUS");
    const char *src = getenv("TLV_SOURCE_DIR");
    if (env && *env)
        buf_puts(&dir, env);
    else if (src && *src)
        buf_printf(&dir, "%s/../shared/corpus/tlv-2.0.1", src);
    struct stat st;
    if (dir.len == 0 || stat(dir.data, &st) < 0 || !S_ISDIR(st.st_mode)) {
        printf("note: corpus not found (set TLV_CORPUS or TLV_SOURCE_DIR); "
               "skipping the corpus checks\n");
        buf_free(&dir);
        return 0;
    }

    buf sub = BUF_INIT;
    buf_printf(&sub, "%s/rules", dir.data);
    size_t rules = parse_all(sub.data, "");
    buf_clear(&sub);
    buf_printf(&sub, "%s/logs", dir.data);
    size_t resources = parse_all(sub.data, ".res");
    CHECK(rules >= 18);
    CHECK(resources >= 14);
    printf("corpus: parsed %zu rule files and %zu resource files\n", rules, resources);

    test_corpus_details(dir.data);
    buf_free(&sub);
    buf_free(&dir);
    return 1;
}

/* An object with 300,000 members, every 7th key given again later: the
 * members that are overridden are exactly those, linked to the right
 * earlier member. Scanning the later siblings of each member (before issue
 * 32.1) took minutes at this size; sorting takes a fraction of a second, so
 * the time bound cannot be met by the quadratic reader even on a slow
 * machine. */
static void test_many_members(void)
{
    enum { N = 300000, AGAIN = 7 };
    buf text = BUF_INIT;
    buf_puts(&text, "{");
    for (size_t i = 0; i < N; i++)
        buf_printf(&text, "\"key%zu\":%zu,", i, i);
    for (size_t i = 0; i < N; i += AGAIN)
        buf_printf(&text, "\"key%zu\":-1,", i);
    buf_puts(&text, "}");
    clock_t start = clock();
    tj_node *n = PARSE_OK(text.data);
    if (n) {
        size_t i = 0, wrong = 0;
        static const tj_node *first[N / AGAIN + 1];
        for (const tj_node *m = n->child; m; m = m->next, i++) {
            int expect = i < N && i % AGAIN == 0;
            if (tj_shadowed(m) != expect)
                wrong++;
            if (i < N && i % AGAIN == 0)
                first[i / AGAIN] = m;
            if (i >= N && m->earlier != first[(i - N)])
                wrong++;
            if (i < N && m->earlier)
                wrong++;
        }
        double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
        printf("300,000 members and %d duplicates read in %.2f s of CPU\n",
               (N + AGAIN - 1) / AGAIN, secs);
        CHECK(secs < 20); /* about 0.3 s; under ASan a few; quadratic: minutes */
        CHECK_INT(i, N + (N + AGAIN - 1) / AGAIN);
        CHECK_INT(wrong, 0);
        CHECK(tj_get(n, "key0") && tj_get(n, "key0")->num == -1);
        CHECK(tj_get(n, "key1") && tj_get(n, "key1")->num == 1);
    }
    tj_free(n);
    buf_free(&text);
}

int main(void)
{
    test_scalars();
    test_tight_delimiters();
    test_escapes();
    test_control_characters();
    test_bom_and_space();
    test_trailing_commas_and_empty_elements();
    test_member_order_and_duplicates();
    test_positions();
    test_type_names();
    test_errors();
    test_depth();
    test_many_members();
    test_corpus();
    return CHECK_DONE();
}
