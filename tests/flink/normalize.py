#!/usr/bin/env python3
"""normalize.py — the one place that turns a SQL-client transcript (Flink's `sql-client.sh -f` or
weir's `weir sql-client -f`) into the form the golden tests compare.

    normalize(text, script, paths=(), source="weir", printed=None, init=None) -> str
    expected_weir_exit(normalized_flink_transcript, flink_exit_status) -> int

`text` is the client's stdout, `script` the golden script as committed (with its `$DATA` / `$TMP`
placeholders), `paths` the (absolute path, placeholder) pairs of that run, `source` says whose
transcript it is ("flink" or "weir"), `printed` (Flink only) what the print connector wrote to
the TaskManager's stdout during the run, and `init` the -i script when there is one.

Everything not named below is compared exactly: values, column widths, row order, messages,
blank lines. The rules, in the order they are applied:

 1. ANSI colour codes are removed. Flink colours [INFO] blue and [ERROR] red even when stdout is
    a pipe; weir prints colour only on a terminal. Colour is presentation, not content.
 2. The line `Command history file path: <path>` (Flink, at start-up) is removed: it names the
    user's home folder, and weir keeps no history in -f mode.
 3. Absolute paths of the run become placeholders exactly as tests/run.sh writes them: the data
    folder tests/golden/data is `$DATA`, the scratch folder a script's `$TMP` stands for is
    `$TMP`, the test folder and the folder holding the substituted scripts are `$GOLDEN`. (tests/
    run.sh writes weir's `$TMP` folder as `$GOLDEN/work`; that spelling becomes `$TMP` too.)
 4. The echo of each statement is written in one canonical form: `Flink SQL> ` + the statement's
    first line, `> ` + each further line, then a line break, then the statement's output. The
    statements come from splitting `script` the way both clients do (split_statements). Why:
    Flink's client feeds a -f script through a jline "dumb terminal" line reader, and what it
    echoes is an artefact of that reader, not a chosen format: the statement text shows up only
    when jline redraws the line, which it does each time it reads a `)` (its matching-parenthesis
    blink). So Flink echoes each statement up to and including its last `)` (nothing at all for a
    statement without one, e.g. `SET 'k' = 'v';`), without a line break, and the output follows
    on the same line. This is the same on a pipe and on a terminal (checked with script(1)).
    weir echoes every statement whole, as it looks when typed interactively. For Flink the
    longest prefix of the statement's echo found after the prompt is replaced by the whole echo
    plus a line break; for weir the whole echo plus line break must be there (any other echo is
    left alone and shows up as a difference).
 5. Elapsed times are removed: Flink ends `Received a total of N rows`, `N rows in set` and
    `Empty set` with ` (1.23 seconds)`; weir prints no time (a time is never reproducible).
 6. Job ids (`Job ID: <32 hex digits>`) become `Job ID: <job id>`; they are random in both.
 7. Java stack traces are removed: after an `[ERROR]` message, lines of the form `\tat ...`,
    `\t... N more` and the `Caused by: ...` lines of a printed trace go; the message a user reads
    (`[ERROR] Could not execute SQL statement. Reason:` and the exception line(s)) stays.
 8. The print connector's rows. On a Flink cluster they go to the TaskManager's stdout, never into
    the client's transcript; weir (embedded) prints them into its own stdout after the INSERT's
    output. Both are moved to one trailing section `--- print connector output ---`: for weir the
    print lines (`[<identifier>[:<subtask>]> ]<+I|-U|+U|-D>[...]`) are taken out of the
    transcript in the order printed (what remains is then what Flink prints: e.g. after an
    asynchronous INSERT's `Job ID:` line two blank lines); for Flink `printed` (what the
    TaskManager printed while the script ran) is appended. The section is omitted when empty.
    Its lines are grouped by print identifier (a stable sort on the `<identifier>> ` prefix):
    the rows of one sink keep their order, but two sinks of one job (a statement set) are two
    Flink tasks writing to the same stdout, whose interleaving changes from run to run.
 9. Nondeterministic row order: while a script has set `parallelism.default` above 1 (tracked
    through its SET/RESET statements), several subtasks deliver rows in an order that changes
    from run to run, in Flink as in weir. In that stretch the data rows of each result table
    (the lines between the header rule and the closing rule) are sorted, and so are the lines of
    the print section. Row order at parallelism 1 is compared exactly (Flink's order there is
    deterministic for these bounded sources).
10. Batch results of unordered queries: in batch mode (`execution.runtime-mode` = 'batch', tracked
    like rule 9, also through the init script) the rows of a query without ORDER BY come out in
    the order of Flink's hash tables and sort-merge internals, which SQL leaves unspecified and
    weir does not imitate; the data rows of such a result table are sorted. Queries with an ORDER
    BY, and every streaming changelog, keep their order.

expected_weir_exit: Flink's client exits 0 even when a statement of a -f script failed; weir
deliberately exits 1 then (tests/golden/README.md). So the status weir must return is 1 when the
normalized transcript stops at an `[ERROR]`, else Flink's own status.
"""
import re

PROMPT = "Flink SQL> "
CONT = "> "
PRINT_HEADER = "--- print connector output ---"

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
HISTORY = re.compile(r"^Command history file path: .*\n", re.M)
# (Flink's client echoes a statement of a script and prints "Empty set" on the same line)
ELAPSED = re.compile(r"^((?:Flink SQL> .*?)?(?:Received a total of \d+ rows?|\d+ rows? in set|Empty set))"
                     r" \(\d+(?:\.\d+)? seconds\)$", re.M)
JOB_ID = re.compile(r"^Job ID: [0-9a-f]{32}$", re.M)
PRINT_ROW = re.compile(r"^(?:[^\n|>]*> )?[+-][IUD]\[.*\]$")
TRACE = re.compile(r"^(?:\s+at .*|\s*\.\.\. \d+ more|Caused by: .*|Suppressed: .*)$")


# ----------------------------------------------------------------------------- statements
def _scan(text, state):
    """Advances a lexer state over text. state: None (plain), "'", '"', '`', '--', '/*'.
    Returns (state, last significant char outside quotes/comments or None, has_content)."""
    i, n, last, content = 0, len(text), None, False
    while i < n:
        c = text[i]
        if state in ("'", '"', "`"):
            if c == state:
                if i + 1 < n and text[i + 1] == state:
                    i += 2
                    continue
                state = None
                last = c
            i += 1
        elif state == "--":
            if c == "\n":
                state = None
            i += 1
        elif state == "/*":
            if text.startswith("*/", i):
                state = None
                i += 2
            else:
                i += 1
        elif text.startswith("--", i):
            state = "--"
            i += 2
        elif text.startswith("/*", i):
            if text.startswith("/*+", i):
                content = True
            state = "/*"
            i += 2
        elif c in "'\"`":
            state = c
            content = True
            i += 1
        else:
            if not c.isspace():
                last = c
                if c != ";":
                    content = True
            i += 1
    return state, last, content


def _words(text):
    """Upper-cased words of text outside quotes and comments."""
    out, state, i, n = [], None, 0, len(text)
    cur = []
    while i < n:
        c = text[i]
        if state is None:
            if text.startswith("--", i):
                state = "--"
            elif text.startswith("/*", i):
                state = "/*"
            elif c in "'\"`":
                state = c
            elif c.isalnum() or c == "_":
                cur.append(c)
                i += 1
                continue
            if cur:
                out.append("".join(cur).upper())
                cur = []
            if c == ";":
                out.append(";")
            i += 2 if state in ("--", "/*") else 1
        elif state in ("'", '"', "`"):
            if c == state and not (i + 1 < n and text[i + 1] == state):
                state = None
            elif c == state:
                i += 1
            i += 1
        elif state == "--":
            if c == "\n":
                state = None
            i += 1
        else:
            if text.startswith("*/", i):
                state = None
                i += 1
            i += 1
    if cur:
        out.append("".join(cur).upper())
    return out


_CLIENT_STATES = (("'", "'"), ("`", "`"), ("--", "\n"), ("/*+", "*/"), ("/*", "*/"))


def _ends_inside_client_state(text):
    """Flink's SqlClientParserState.computeCurrentStateAtTheEndOfLine (default dialect): does the
    text end inside a string, `name`, comment or hint? A start marker is skipped whole; after an
    end marker the scan goes on at the next character."""
    cur, i = None, 0
    while i < len(text):
        if cur is None:
            for start, end in _CLIENT_STATES:
                if text.startswith(start, i):
                    cur = (start, end)
                    i += len(start) - 1
                    break
        elif text.startswith(cur[1], i):
            cur = None
        i += 1
    return cur is not None


def _complete(buf):
    """Flink's (and weir's) rule: the text read so far literally ends with ';', that ';' is
    outside quotes and comments, the text holds more than blanks, comments and ';', and an
    `[EXECUTE] STATEMENT SET BEGIN ...` block is closed by `END;`."""
    if not buf.rstrip().endswith(";") or _ends_inside_client_state(buf):
        return False
    state, last, content = _scan(buf, None)
    if state is not None or last != ";" or not content:
        return False
    w = _words(buf)
    block = False
    for i in range(len(w) - 2):
        if w[i:i + 3] == ["STATEMENT", "SET", "BEGIN"]:
            block = True
        if block and w[i] == "END" and w[i + 1] == ";" and (i == 0 or w[i - 1] == ";"):
            block = False
    if block and len(w) >= 2 and w[-2] == "END" and (len(w) < 3 or w[-3] == ";"):
        block = False
    return not block


def split_statements(script):
    """The statements of a -f script as lists of lines, as the clients read them: the file is
    trimmed and ';' appended when missing (Flink's formatSqlFile); lines are read until the text
    is complete (_complete); blank and comment lines before a statement belong to it (Flink's line
    reader keeps them in the statement's buffer: its echo shows them). Text after the last complete statement that holds more than comments is a last
    (unterminated) statement."""
    text = script.strip()
    if not text.endswith(";"):
        text += ";"
    lines = text.split("\n")
    out, cur = [], []
    for line in lines:
        line = line[:-1] if line.endswith("\r") else line
        cur.append(line)
        if _complete("\n".join(cur)):
            out.append(cur)
            cur = []
    if cur and _scan("\n".join(cur), None)[2]:
        out.append(cur)
    return out


def echo_of(lines):
    return lines[0] + "".join("\n" + CONT + l for l in lines[1:])


# ----------------------------------------------------------------------------- the rules
def _paths(text, paths):
    for path, placeholder in sorted(paths, key=lambda p: -len(p[0])):
        if path:
            text = text.replace(path, placeholder)
    return text.replace("$GOLDEN/work", "$TMP")


def _strip_traces(text):
    out, in_error = [], False
    for line in text.split("\n"):
        if line.startswith("[ERROR]"):
            in_error = True
        elif line.startswith(PROMPT) or line.startswith("[INFO]"):
            in_error = False
        if in_error and TRACE.match(line):
            continue
        out.append(line)
    return "\n".join(out)


def _segments(text):
    """(head, [segments]): the text before the first prompt and the text after each prompt."""
    parts = re.split(r"(?:^|(?<=\n))" + re.escape(PROMPT), text)
    return parts[0], parts[1:]


def _canonical_echo(seg, stmt_lines, source):
    """(echo, output) of one prompt's text (rule 4); echo is None when weir's echo is not the
    whole statement (then output is the text as it is)."""
    full = echo_of(stmt_lines)
    if source == "weir":
        if seg.startswith(full + "\n"):
            return full, seg[len(full) + 1:]
        return None, seg
    k, n = 0, min(len(full), len(seg))
    while k < n and seg[k] == full[k]:
        k += 1
    rest = seg[k:]
    if k == len(full) and rest.startswith("\n"):
        rest = rest[1:]
    return full, rest


def _take_print_rows(output):
    """Splits weir's print-connector rows out of one statement's output (rule 8)."""
    keep, rows = [], []
    for line in output.split("\n"):
        (rows if PRINT_ROW.match(line) else keep).append(line)
    return "\n".join(keep), rows


def _settings_after(stmt_lines, conf):
    """The settings rules 9 and 10 track, after one statement: SET 'parallelism.default' and SET
    'execution.runtime-mode' change them, RESET '<key>' and RESET; put them back to the defaults
    (parallelism 1, streaming)."""
    text = re.sub(r"--[^\n]*", "", "\n".join(stmt_lines)).strip()
    conf = dict(conf)
    m = re.match(r"(?is)^SET\s+'([\w.-]+)'\s*=\s*'([^']*)'\s*;$", text)
    if m and m.group(1) == "parallelism.default" and m.group(2).strip().isdigit():
        conf["par"] = int(m.group(2))
    elif m and m.group(1) == "execution.runtime-mode":
        conf["batch"] = m.group(2).strip().lower() == "batch"
    m = re.match(r"(?is)^RESET\s*(?:'([\w.-]+)'\s*)?;$", text)
    if m:
        if m.group(1) in (None, "parallelism.default"):
            conf["par"] = 1
        if m.group(1) in (None, "execution.runtime-mode"):
            conf["batch"] = False
    return conf


def _is_unordered_query(stmt_lines):
    """A query (SELECT / WITH / VALUES / TABLE, after comments) without an ORDER BY of its own:
    an ORDER BY inside parentheses (an OVER window, a WINDOW clause, a subquery) orders nothing
    that the result shows, so only one at the query's own level counts."""
    text = re.sub(r"--[^\n]*|/\*.*?\*/", " ", "\n".join(stmt_lines), flags=re.S)
    text = re.sub(r"'(?:[^']|'')*'", "''", text).strip()
    text = re.sub(r'"(?:[^"]|"")*"|`(?:[^`]|``)*`', "x", text)
    if not re.match(r"(?i)^\(*\s*(SELECT|WITH|VALUES|TABLE)\b", text):
        return False
    outer = len(re.match(r"^[(\s]*", text).group(0).replace(" ", "").replace("\n", ""))
    depth, top = 0, []
    for ch in text:   # the text at the query's own parenthesis level
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        top.append(ch if depth <= outer and ch not in "()" else " ")
    return not re.search(r"(?i)\bORDER\s+BY\b", "".join(top))


def _sort_tables(seg):
    """Sorts the data rows of each result table of one statement's output (rule 9)."""
    lines = seg.split("\n")
    rule = re.compile(r"^\+[-+]+\+$")
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        # header rule, header, rule, rows..., rule
        if rule.match(lines[i]) and i + 2 < len(lines) and lines[i + 1].startswith("|") \
                and lines[i + 2] == lines[i]:
            out += lines[i + 1:i + 3]
            j = i + 3
            rows = []
            while j < len(lines) and lines[j].startswith("|"):
                rows.append(lines[j])
                j += 1
            out += sorted(rows)
            i = j
            continue
        i += 1
    return "\n".join(out)


def normalize(text, script, paths=(), source="weir", printed=None, init=None):
    if source not in ("weir", "flink"):
        raise ValueError("source must be 'weir' or 'flink'")
    text = ANSI.sub("", text.replace("\r\n", "\n"))                    # rule 1
    text = HISTORY.sub("", text)                                        # rule 2
    text = _paths(text, paths)                                          # rule 3
    text = ELAPSED.sub(r"\1", text)                                     # rule 5
    text = JOB_ID.sub("Job ID: <job id>", text)                         # rule 6
    text = _strip_traces(text)                                          # rule 7
    stmts = split_statements(_paths(script, paths))
    head, segs = _segments(text)
    conf = {"par": 1, "batch": False}
    for lines in split_statements(_paths(init, paths)) if init else []:
        conf = _settings_after(lines, conf)
    out, printed_rows, sort_print = [head], [], conf["par"] > 1
    for i, seg in enumerate(segs):
        echo = None
        if i < len(stmts):
            echo, seg = _canonical_echo(seg, stmts[i], source)          # rule 4
        if source == "weir":
            seg, rows = _take_print_rows(seg)                           # rule 8
            printed_rows += rows
        if conf["par"] > 1 or (conf["batch"] and i < len(stmts)
                               and _is_unordered_query(stmts[i])):
            seg = _sort_tables(seg)                                     # rules 9 and 10
        if i < len(stmts):
            conf = _settings_after(stmts[i], conf)
            sort_print = sort_print or conf["par"] > 1
        out.append(PROMPT + (echo + "\n" if echo is not None else "") + seg)
    text = "".join(out)
    if source == "flink" and printed:
        printed_rows = [l for l in _paths(ANSI.sub("", printed), paths).split("\n") if l]
    if printed_rows:
        if sort_print:
            printed_rows = sorted(printed_rows)
        else:   # grouped by print identifier, each sink's rows in their order (rule 8)
            printed_rows = sorted(printed_rows, key=lambda l: l.split("> ", 1)[0]
                                  if re.match(r"^[^\n|>]*> ", l) else "")
        if not text.endswith("\n"):
            text += "\n"
        text += PRINT_HEADER + "\n" + "\n".join(printed_rows) + "\n"
    return text


def expected_weir_exit(flink_normalized, flink_status):
    """The exit status weir must return for a script whose Flink transcript this is."""
    tail = flink_normalized.split(PRINT_HEADER)[0].rstrip("\n").split("\n")
    # ... [ERROR] block, blank line, "Shutting down the session...", "done." (the block may span
    # many lines: look from the last statement's prompt on)
    last = max([i for i, line in enumerate(tail) if line.startswith("Flink SQL> ")] or [0])
    body = "\n".join(tail[last:])
    if re.search(r"^\[ERROR\][^\n]*(?:\n(?!Flink SQL> )[^\n]*)*\n\nShutting down the session\.\.\.\ndone\.$",
                 body, re.M):
        return 1
    return flink_status


# ----------------------------------------------------------------------------- list files
def read_list(path):
    """A `<name> <text>` list file (comments start with '#') as an ordered dict."""
    out = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line.strip() or line.startswith("#"):
                    continue
                name, _, rest = line.partition(" ")
                out[name] = rest.strip()
    except FileNotFoundError:
        pass
    return out


def write_list(path, entries, header):
    with open(path, "w", encoding="utf-8") as f:
        for h in header.split("\n"):
            f.write("# " + h.lstrip("# ") + "\n")
        for name in sorted(entries):
            f.write("%s %s\n" % (name, entries[name]))


if __name__ == "__main__":
    import argparse
    import sys
    ap = argparse.ArgumentParser(description="normalize a SQL-client transcript (see the module doc)")
    ap.add_argument("--source", choices=["weir", "flink"], default="weir")
    ap.add_argument("--script", required=True, help="the golden script (with $DATA/$TMP)")
    ap.add_argument("transcript", nargs="?", help="stdout of the client (default: stdin)")
    a = ap.parse_args()
    with open(a.script, encoding="utf-8") as f:
        script = f.read()
    text = open(a.transcript, encoding="utf-8").read() if a.transcript else sys.stdin.read()
    sys.stdout.write(normalize(text, script, source=a.source))
