/*
 * result_view.c — full-screen `table` / `changelog` result views (see result_view.h).
 *
 * Contract: owns the terminal while open (termios, alternate screen) and the rows shown (rendered
 * strings, one heap array per row); never calls the session. Row cells are rendered and fitted as
 * the tableau does (wtab_render_cell, wtab_fit); the screen is rebuilt whole on each redraw.
 */
#include "result_view.h"

#include <assert.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "messages.h"
#include "tableau.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

#define INVERSE "\x1b[7m"
#define UNDERLINE "\x1b[4m"
#define RESET "\x1b[0m"
#define NO_ROW (-1L)
#define LAST_PAGE 0

/* Flink's CliResultView.REFRESH_INTERVALS: label and milliseconds (-1: never). */
static const struct { const char *label; long ms; } INTERVALS[] = {
    {"Fastest", 0}, {"100 ms", 100}, {"500 ms", 100}, {"1 s", 1000},
    {"5 s", 5000}, {"10 s", 10000}, {"1 min", 60000}, {"-", -1},
};
#define N_INTERVALS ((int)(sizeof INTERVALS / sizeof INTERVALS[0]))
#define TABLE_DEFAULT_INTERVAL 3
#define TABLE_MIN_INTERVAL 1
#define CHANGELOG_DEFAULT_INTERVAL 0
#define CHANGELOG_MAX_ROWS 1000     /* CliChangelogResultView.DEFAULT_MAX_ROW_COUNT */

typedef struct ViewRow {
    char **cells;           /* ncols strings (changelog: the kind first) */
} ViewRow;

struct WResultView {
    int in_fd;
    FILE *out;
    bool changelog, running, quit;
    int ncols;              /* shown columns (changelog: + op) */
    char **names;
    char **type_names;
    int *widths;
    const WTimeZone *tz;
    ViewRow *rows;
    long nrows, cap;
    int interval;           /* index into INTERVALS */
    int page;               /* table: LAST_PAGE or 1-based */
    long selected;          /* NO_ROW or the selected row (index into rows) */
    int offset_x;           /* horizontal scroll: the first column shown */
    double last_draw;       /* monotonic seconds of the last redraw */
    char updated[16];       /* HH:mm:ss.SSS of the last refresh, "" before */
    struct termios saved;
    bool have_saved;
};

static double now_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void stamp_updated(WResultView *v)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    localtime_r(&ts.tv_sec, &tm);
    snprintf(v->updated, sizeof v->updated, "%02d:%02d:%02d.%03ld", tm.tm_hour, tm.tm_min,
             tm.tm_sec, ts.tv_nsec / 1000000L);
}

static void term_size(const WResultView *v, int *width, int *height)
{
    struct winsize ws;
    *width = 80;
    *height = 24;
    if (ioctl(fileno(v->out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
        *width = ws.ws_col;
        *height = ws.ws_row;
    }
}

/* ------------------------------------------------------------------ rows */

static void free_row(ViewRow *r, int ncols)
{
    for (int i = 0; i < ncols; i++) free(r->cells[i]);
    free(r->cells);
}

static void push_row(WResultView *v, char **cells)
{
    if (v->nrows == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 64;
        v->rows = wrealloc(v->rows, (size_t)v->cap * sizeof(ViewRow));
    }
    v->rows[v->nrows++].cells = cells;
}

/* Table view: a retraction removes the last row with the same values (Flink's materialized
   result keeps the position of the last insertion of each row). */
static void remove_last_equal(WResultView *v, char **cells)
{
    for (long r = v->nrows - 1; r >= 0; r--) {
        bool same = true;
        for (int i = 0; i < v->ncols && same; i++) same = strcmp(v->rows[r].cells[i], cells[i]) == 0;
        if (!same) continue;
        free_row(&v->rows[r], v->ncols);
        memmove(&v->rows[r], &v->rows[r + 1], (size_t)(v->nrows - r - 1) * sizeof(ViewRow));
        v->nrows--;
        if (v->selected >= v->nrows) v->selected = NO_ROW;
        return;
    }
}

/* ------------------------------------------------------------------ drawing */

static void put_line_at(WStrBuf *sb, int line)
{
    wsb_printf(sb, "\x1b[%d;1H\x1b[2K", line);
}

static int visible_main_height(int height)
{
    int h = height - 6;     /* title, status, empty, column names, two help lines */
    return h > 1 ? h : 1;
}

static int page_count(const WResultView *v, int visible)
{
    long n = (v->nrows + visible - 1) / visible;
    return n < 1 ? 1 : (int)n;
}

/* Flink's CliUtils.formatTwoLineHelpOptions. */
static void help_lines(WStrBuf *l1, WStrBuf *l2, int width, const char *const (*opts)[2], int n)
{
    int columns = (n + 1) / 2;
    int space = (width - 1 - columns * 13) / columns;
    if (space < 1) space = 1;
    for (int i = 0; i < n; i++) {
        WStrBuf *l = i % 2 == 0 ? l1 : l2;
        wsb_printf(l, INVERSE "%s" RESET " %s", opts[i][0], opts[i][1]);
        int pad = 11 - (int)strlen(opts[i][1]) + space;
        wsb_repeat(l, ' ', (size_t)(pad > 0 ? pad : 1));
    }
}

/* Flink's CliUtils.normalizeColumn: lengths in UTF-16 units (Java's String.length(), not display
   columns); a longer value keeps its first width - 1 units and ends with '~', a shorter one is
   right-aligned. */
static void normalize_column(WStrBuf *sb, const char *s, int width)
{
    int len = wtab_utf16_len(s);
    if (len <= width) {
        wsb_repeat(sb, ' ', (size_t)(width - len));
        wsb_append(sb, s);
        return;
    }
    const unsigned char *p = (const unsigned char *)s;
    int units = 0;
    while (*p) {
        int n = (*p < 0x80) ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : 4;
        int u = n == 4 ? 2 : 1;
        if (units + u > width - 1) break;
        for (int k = 0; k < n && p[k]; k++) wsb_putc(sb, (char)p[k]);
        units += u;
        p += n;
    }
    wsb_putc(sb, '~');
}

/* One line of cells from the first shown column on (horizontal scrolling skips whole columns;
   the terminal's auto-wrap is off, so a line longer than the screen is cut at its edge). */
static void put_cells(WStrBuf *sb, const WResultView *v, char *const *cells, bool underline)
{
    for (int i = v->offset_x; i < v->ncols; i++) {
        wsb_putc(sb, ' ');
        if (underline) wsb_append(sb, UNDERLINE);
        normalize_column(sb, cells[i], v->widths[i]);
        if (underline) wsb_append(sb, RESET);
    }
}

static void draw(WResultView *v)
{
    int width, height;
    term_size(v, &width, &height);
    int visible = visible_main_height(height);
    WStrBuf sb;
    wsb_init(&sb);
    wsb_append(&sb, "\x1b[?25l\x1b[H\x1b[2J");

    /* title */
    const char *title = v->changelog ? "SQL Query Result (Changelog)" : "SQL Query Result (Table)";
    int tl = (int)strlen(title);
    put_line_at(&sb, 1);
    wsb_append(&sb, INVERSE);
    wsb_repeat(&sb, ' ', (size_t)((width - tl) / 2 > 0 ? (width - tl) / 2 : 0));
    wsb_append(&sb, title);
    wsb_repeat(&sb, ' ', (size_t)(width - tl - (width - tl) / 2 > 0 ? width - tl - (width - tl) / 2 : 0));

    /* status: left, middle (table), right — Flink's computeHeaderLines */
    char left[64], middle[64], right[64];
    if (v->running)
        snprintf(left, sizeof left, " Refresh: %s", INTERVALS[v->interval].label);
    else
        snprintf(left, sizeof left, " Table program finished.");
    int pages = page_count(v, visible);
    if (v->page == LAST_PAGE)
        snprintf(middle, sizeof middle, "Page: Last of %d", pages);
    else
        snprintf(middle, sizeof middle, "Page: %d of %d", v->page, pages);
    snprintf(right, sizeof right, "Updated: %s ", v->updated[0] ? v->updated : "Unknown");
    put_line_at(&sb, 2);
    int used = (int)strlen(left);
    wsb_append(&sb, left);
    if (!v->changelog) {
        int lspace = (width - (int)strlen(middle)) / 2 - used;
        if (lspace < 1) lspace = 1;
        wsb_repeat(&sb, ' ', (size_t)lspace);
        wsb_append(&sb, middle);
        used += lspace + (int)strlen(middle);
    }
    int rspace = width - used - (int)strlen(right);
    wsb_repeat(&sb, ' ', (size_t)(rspace > 1 ? rspace : 1));
    wsb_append(&sb, right);
    wsb_append(&sb, RESET);

    /* column names */
    put_line_at(&sb, 4);
    put_cells(&sb, v, v->names, true);

    /* rows of the page */
    long first = 0, count = v->nrows;
    if (!v->changelog) {
        int pg = v->page == LAST_PAGE ? pages : v->page;
        first = (long)(pg - 1) * visible;
    } else if (v->nrows > visible) {
        first = v->nrows - visible;
        if (v->selected != NO_ROW && v->selected < first) first = v->selected;
    }
    count = v->nrows - first < visible ? v->nrows - first : visible;
    for (long i = 0; i < count; i++) {
        long r = first + i;
        put_line_at(&sb, 5 + (int)i);
        if (r == v->selected) wsb_append(&sb, INVERSE);
        put_cells(&sb, v, v->rows[r].cells, false);
        if (r == v->selected) wsb_append(&sb, RESET);
    }

    /* key help */
    static const char *const TABLE_KEYS[][2] = {
        {"Q", "Quit"}, {"R", "Refresh"}, {"+", "Inc Refresh"}, {"-", "Dec Refresh"},
        {"G", "Goto Page"}, {"L", "Last Page"}, {"N", "Next Page"}, {"P", "Prev Page"},
        {"O", "Open Row"},
    };
    static const char *const CHANGELOG_KEYS[][2] = {
        {"Q", "Quit"}, {"R", "Refresh"}, {"+", "Inc Refresh"}, {"-", "Dec Refresh"},
        {"O", "Open Row"},
    };
    WStrBuf l1, l2;
    wsb_init(&l1);
    wsb_init(&l2);
    if (v->changelog)
        help_lines(&l1, &l2, width, CHANGELOG_KEYS, (int)(sizeof CHANGELOG_KEYS / sizeof CHANGELOG_KEYS[0]));
    else
        help_lines(&l1, &l2, width, TABLE_KEYS, (int)(sizeof TABLE_KEYS / sizeof TABLE_KEYS[0]));
    put_line_at(&sb, height - 1);
    wsb_append(&sb, l1.buf ? l1.buf : "");
    put_line_at(&sb, height);
    wsb_append(&sb, l2.buf ? l2.buf : "");
    wsb_free(&l1);
    wsb_free(&l2);

    fwrite(sb.buf, 1, sb.len, v->out);
    fflush(v->out);
    wsb_free(&sb);
    v->last_draw = now_mono();
}

/* ------------------------------------------------------------------ keys */

/* Read what is available within wait_ms (0: do not wait). Returns the byte count (0: nothing). */
static int read_keys(const WResultView *v, char *buf, int n, int wait_ms)
{
    struct pollfd pfd = {.fd = v->in_fd, .events = POLLIN};
    if (poll(&pfd, 1, wait_ms) <= 0 || !(pfd.revents & POLLIN)) return 0;
    ssize_t got = read(v->in_fd, buf, (size_t)n);
    return got > 0 ? (int)got : 0;
}

/* The page number typed on the bottom line; 0 when cancelled or invalid. */
static int input_page(WResultView *v, int pages)
{
    int width, height;
    term_size(v, &width, &height);
    char digits[12] = {0};
    int nd = 0;
    for (;;) {
        fprintf(v->out, "\x1b[%d;1H\x1b[2K\x1b[%d;1H\x1b[2KEnter page number: [1 to %d] %s\x1b[?25h",
                height - 1, height, pages, digits);
        fflush(v->out);
        char k;
        if (read_keys(v, &k, 1, 200) != 1) continue;
        if (k == '\r' || k == '\n') {
            int p = atoi(digits);
            fputs("\x1b[?25l", v->out);
            if (p >= 1 && p <= pages) return p;
            nd = 0;
            digits[0] = 0;      /* invalid: ask again (Flink's input view validates) */
            continue;
        }
        if (k == 0x1b) {
            fputs("\x1b[?25l", v->out);
            return 0;
        }
        if ((k == 0x7f || k == 0x08) && nd > 0) digits[--nd] = 0;
        else if (k >= '0' && k <= '9' && nd < 9) { digits[nd++] = k; digits[nd] = 0; }
    }
}

static void open_row(WResultView *v)
{
    if (v->selected == NO_ROW) return;
    int width, height;
    term_size(v, &width, &height);
    WStrBuf sb;
    wsb_init(&sb);
    wsb_append(&sb, "\x1b[H\x1b[2J");
    const char *title = "Row Summary";
    int tl = (int)strlen(title);
    wsb_append(&sb, INVERSE);
    wsb_repeat(&sb, ' ', (size_t)((width - tl) / 2 > 0 ? (width - tl) / 2 : 0));
    wsb_append(&sb, title);
    wsb_repeat(&sb, ' ', (size_t)(width - tl - (width - tl) / 2 > 0 ? width - tl - (width - tl) / 2 : 0));
    wsb_append(&sb, RESET "\r\n\r\n");
    for (int i = 0; i < v->ncols; i++) {
        wsb_printf(&sb, "\x1b[1m%s (%s):" RESET "\r\n", v->names[i], v->type_names[i]);
        wsb_append(&sb, v->rows[v->selected].cells[i]);
        wsb_append(&sb, "\r\n\r\n");
    }
    wsb_printf(&sb, "\x1b[%d;1HPress " INVERSE "Q" RESET " to go back.", height);
    fwrite(sb.buf, 1, sb.len, v->out);
    fflush(v->out);
    wsb_free(&sb);
    char k = 0;
    while (k != 'q' && k != 'Q' && k != 0x1b)
        if (read_keys(v, &k, 1, 200) != 1) k = 0;
}

typedef enum ViewOp {
    OP_NONE, OP_QUIT, OP_REFRESH, OP_INC, OP_DEC, OP_GOTO, OP_NEXT, OP_PREV, OP_LAST,
    OP_UP, OP_DOWN, OP_LEFT, OP_RIGHT, OP_OPEN
} ViewOp;

/* The operation of the key at buf[*i] (Flink's key map); *i ends on the key's last byte. */
static ViewOp decode_key(const char *buf, int n, int *i)
{
    char k = buf[*i];
    if (k == 0x1b) {
        if (*i + 1 < n && (buf[*i + 1] == '[' || buf[*i + 1] == 'O')) {
            int j = *i + 2, param = 0;
            while (j < n && ((buf[j] >= '0' && buf[j] <= '9') || buf[j] == ';')) {
                if (buf[j] != ';') param = param * 10 + (buf[j] - '0');
                j++;
            }
            *i = j < n ? j : n - 1;
            char fin = j < n ? buf[j] : 0;
            switch (fin) {
            case 'A': return OP_UP;
            case 'B': return OP_DOWN;
            case 'C': return OP_RIGHT;
            case 'D': return OP_LEFT;
            case 'F': return OP_LAST;                                   /* End */
            case '~': return param == 4 || param == 8 ? OP_LAST : param == 15 ? OP_REFRESH : OP_NONE;
            default: return OP_NONE;
            }
        }
        return OP_QUIT;                                                 /* a lone Esc */
    }
    switch (k) {
    case 'q': case 'Q': case 0x03: return OP_QUIT;
    case 'r': case 'R': return OP_REFRESH;
    case '+': return OP_INC;
    case '-': return OP_DEC;
    case 'g': case 'G': return OP_GOTO;
    case 'n': case 'N': return OP_NEXT;
    case 'p': case 'P': return OP_PREV;
    case 'l': case 'L': return OP_LAST;
    case 'w': case 'W': return OP_UP;
    case 's': case 'S': return OP_DOWN;
    case 'a': case 'A': return OP_LEFT;
    case 'd': case 'D': return OP_RIGHT;
    case 'o': case 'O': case '\r': case '\n': return OP_OPEN;
    default: return OP_NONE;
    }
}

/* Handle the keys in buf; returns false when the user quit. */
static bool handle_keys(WResultView *v, const char *buf, int n)
{
    int width, height;
    term_size(v, &width, &height);
    int visible = visible_main_height(height);
    int pages = page_count(v, visible);
    int cur = v->page == LAST_PAGE ? pages : v->page;
    bool redraw = false;
    for (int i = 0; i < n; i++) {
        ViewOp op = decode_key(buf, n, &i);
        int before = cur;
        bool paging = op == OP_GOTO || op == OP_NEXT || op == OP_PREV || op == OP_LAST;
        if (paging && v->changelog) continue;      /* the changelog view has no pages */
        switch (op) {
        case OP_NONE:
            continue;
        case OP_QUIT:
            v->quit = true;
            return false;
        case OP_REFRESH:
            stamp_updated(v);
            break;
        case OP_INC:
            if (v->interval < N_INTERVALS - 1) v->interval++;
            break;
        case OP_DEC:
            if (v->interval > (v->changelog ? 0 : TABLE_MIN_INTERVAL)) v->interval--;
            break;
        case OP_GOTO: {
            int p = input_page(v, pages);
            if (p > 0) v->page = cur = p;
            break;
        }
        case OP_NEXT:
            if (cur < pages) v->page = ++cur;
            break;
        case OP_PREV:
            if (cur > 1) v->page = --cur;
            break;
        case OP_LAST:
            v->page = LAST_PAGE;
            cur = pages;
            break;
        case OP_UP:
        case OP_DOWN: {
            /* the selection moves within the rows shown (the table's page) */
            long first = 0, last = v->nrows - 1;
            if (!v->changelog) {
                first = (long)(cur - 1) * visible;
                last = first + visible - 1 < v->nrows - 1 ? first + visible - 1 : v->nrows - 1;
            }
            if (last < first) break;
            if (v->selected == NO_ROW || v->selected < first || v->selected > last)
                v->selected = op == OP_UP ? last : first;
            else if (op == OP_UP && v->selected > first)
                v->selected--;
            else if (op == OP_DOWN && v->selected < last)
                v->selected++;
            break;
        }
        case OP_LEFT:
            if (v->offset_x > 0) v->offset_x--;
            break;
        case OP_RIGHT:
            if (v->offset_x + 1 < v->ncols) v->offset_x++;
            break;
        case OP_OPEN:
            open_row(v);
            break;
        }
        if (cur != before) v->selected = NO_ROW;
        redraw = true;
    }
    if (redraw) draw(v);
    return true;
}

bool wrv_poll(WResultView *v)
{
    if (v->quit) return false;
    char buf[64];
    int n;
    while ((n = read_keys(v, buf, sizeof buf, 0)) > 0)
        if (!handle_keys(v, buf, n)) return false;
    return true;
}

/* ------------------------------------------------------------------ life cycle */

WResultView *wrv_open(int in_fd, FILE *out, bool changelog, int ncols, const char *const *names,
                      const WType *const *types, int max_width, const WTimeZone *tz)
{
    WResultView *v = wcalloc(1, sizeof *v);
    v->in_fd = in_fd;
    v->out = out;
    v->changelog = changelog;
    v->running = true;
    v->tz = tz;
    v->selected = NO_ROW;
    v->page = LAST_PAGE;
    v->interval = changelog ? CHANGELOG_DEFAULT_INTERVAL : TABLE_DEFAULT_INTERVAL;
    int extra = changelog ? 1 : 0;
    v->ncols = ncols + extra;
    v->names = wcalloc((size_t)v->ncols, sizeof(char *));
    v->type_names = wcalloc((size_t)v->ncols, sizeof(char *));
    v->widths = wcalloc((size_t)v->ncols + 1, sizeof(int));
    wtab_widths_by_type(ncols, names, types, max_width, false, changelog, v->widths);
    if (changelog) {
        v->names[0] = wstrdup(WTAB_OP_COLUMN);
        v->type_names[0] = wstrdup("STRING");
    }
    for (int i = 0; i < ncols; i++) {
        v->names[i + extra] = wstrdup(names[i]);
        WStrBuf t;
        wsb_init(&t);
        wtype_to_string(types[i], &t);
        v->type_names[i + extra] = wsb_detach(&t);
    }
    if (tcgetattr(in_fd, &v->saved) == 0) {
        v->have_saved = true;
        struct termios raw = v->saved;
        raw.c_lflag &= (tcflag_t)~(ICANON | ECHO);
        raw.c_cc[VMIN] = 1;
        raw.c_cc[VTIME] = 0;
        tcsetattr(in_fd, TCSANOW, &raw);
    }
    fputs("\x1b[?1049h\x1b[?7l", out);     /* alternate screen, no auto-wrap */
    draw(v);
    return v;
}

bool wrv_rows(WResultView *v, const WChunk *c)
{
    assert(v && c);
    if (!wrv_poll(v)) return false;
    WStrBuf cell;
    wsb_init(&cell);
    int extra = v->changelog ? 1 : 0;
    for (int r = 0; r < c->nrows; r++) {
        char **cells = wcalloc((size_t)v->ncols, sizeof(char *));
        WRowKind kind = (WRowKind)c->kinds[r];
        if (v->changelog) cells[0] = wstrdup(wrowkind_short(kind));
        for (int col = 0; col + extra < v->ncols; col++) {
            wsb_clear(&cell);
            if (col < c->ncols) wtab_render_cell(c, col, r, v->tz, &cell);
            cells[col + extra] = wstrdup(cell.buf ? cell.buf : "");
        }
        if (v->changelog) {
            if (v->nrows >= CHANGELOG_MAX_ROWS) {     /* Flink keeps the newest 1000 changes */
                free_row(&v->rows[0], v->ncols);
                memmove(&v->rows[0], &v->rows[1], (size_t)(v->nrows - 1) * sizeof(ViewRow));
                v->nrows--;
                if (v->selected != NO_ROW) v->selected = v->selected > 0 ? v->selected - 1 : NO_ROW;
            }
            push_row(v, cells);
        } else if (!wrowkind_is_retract(kind)) {
            push_row(v, cells);
        } else {
            remove_last_equal(v, cells);
            free_row(&(ViewRow){cells}, v->ncols);
        }
    }
    wsb_free(&cell);
    long ms = INTERVALS[v->interval].ms;
    if (ms >= 0 && (now_mono() - v->last_draw) * 1000.0 >= (double)(ms > 100 ? ms : 100)) {
        stamp_updated(v);
        draw(v);
    }
    return true;
}

void wrv_finish(WResultView *v, bool ok, bool (*interrupted)(void))
{
    v->running = false;
    if (!ok || v->quit) return;
    stamp_updated(v);
    draw(v);
    char buf[64];
    for (;;) {
        int n = read_keys(v, buf, sizeof buf, 500);
        if (n > 0 && !handle_keys(v, buf, n)) return;
        if (interrupted && interrupted()) return;
    }
}

void wrv_close(WResultView *v, bool announce)
{
    if (!v) return;
    fputs("\x1b[?7h\x1b[?25h\x1b[?1049l", v->out);
    fflush(v->out);
    if (v->have_saved) tcsetattr(v->in_fd, TCSANOW, &v->saved);
    if (announce) wmsg_info(v->out, true, "Result retrieval cancelled.");
    for (long r = 0; r < v->nrows; r++) free_row(&v->rows[r], v->ncols);
    free(v->rows);
    for (int i = 0; i < v->ncols; i++) {
        free(v->names[i]);
        free(v->type_names[i]);
    }
    free(v->names);
    free(v->type_names);
    free(v->widths);
    free(v);
}
