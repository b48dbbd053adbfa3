#!/usr/bin/env python3
"""Rewrites UI string keys written as string literals into StringKey cases (issue 28).

    python3 scripts/codemod-string-keys.py [REPO]      (REPO defaults to the current directory)

Idempotent: run it again on merged code and it converts only what is still a literal.
A literal is converted when its text is exactly a key of Resources/strings/en.json:
  - a direct argument of a call (`s("a.b")`, `.key("a.b", …)`, `f(x ? "a.b" : "c.d")`, `said: "a.b"`)
    or after `return` / `==` / `!=` becomes `.aB`
    (the parameter or return type must be StringKey; the compiler says where it is not);
  - anywhere else in code (`let k = x ? "a.b" : …`, an array or tuple element) becomes `StringKey.aB`;
  - a `-> String` function or `: String` computed property that now has `return .aB` gets
    `StringKey` for its type.
  - a dictionary literal's key (`["a.b": "text"]`, a strings table a test or bench makes) or a
    subscript (`table["a.b"]`) becomes `StringKey.aB.rawValue`.
Left alone: anything in a comment or a multi-line/raw string; Tests/EndToEndTests (its UIStrings
reads the JSON files at run time and throws on a missing key; that target does not link DocentCore).
Printed: interpolated literals that look like built keys (`"tab.\\(x)"`), to be made switches by hand.
"""
import json
import os
import re
import sys

SKIP_DIRS = {os.path.join("Tests", "EndToEndTests")}
SKIP_FILES = {os.path.join("Sources", "DocentCore", "Store", "StringKey.swift")}
KEYWORDS_BEFORE_PAREN = {"if", "while", "guard", "in", "return", "case", "switch", "for", "where", "else",
                         "try", "await", "throw", "let", "var", "is", "as", "and", "or", "repeat", "catch"}


def member_name(key):
    parts = key.split(".")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


IDENT = re.compile(r"[A-Za-z0-9_`]")


def prev_token(text, i):
    """The code just before index i (skipping spaces): ('word', w) | ('char', c) | (None, None)."""
    j = i - 1
    while j >= 0 and text[j] in " \t\r\n":
        j -= 1
    if j < 0:
        return None, None, j
    if IDENT.match(text[j]):
        k = j
        while k >= 0 and IDENT.match(text[k]):
            k -= 1
        return "word", text[k + 1:j + 1], j
    return "char", text[j], j


def next_char(text, i):
    j = i
    while j < len(text) and text[j] in " \t\r\n":
        j += 1
    return text[j] if j < len(text) else ""


def rewrite(text, keys, path, report):
    out = []
    stack = []  # entries: 'call' | 'paren' | 'subscript' | 'array' | 'brace'
    i, n = 0, len(text)
    line = 1
    last = 0
    changed = 0

    def where():
        return f"{path}:{line}"

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
            continue
        if text.startswith('"""', i) or (c == "#" and re.match(r'#+"', text[i:])):
            # multi-line or raw string: skip to its end
            m = re.match(r'(#*)("""|")', text[i:])
            hashes, quote = m.group(1), m.group(2)
            close = quote + hashes
            j = text.find(close, i + len(m.group(0)))
            j = n if j < 0 else j + len(close)
            line += text.count("\n", i, j)
            i = j
            continue
        if c == '"':
            # a single-line string literal; find its end, honouring escapes and \( … ) nesting
            j = i + 1
            depth = 0
            while j < n:
                if text[j] == "\\":
                    if j + 1 < n and text[j + 1] == "(":
                        depth += 1
                        j += 2
                        continue
                    j += 2
                    continue
                if depth and text[j] == ")":
                    depth -= 1
                elif depth and text[j] == '"':
                    # a string inside an interpolation: skip it
                    k = j + 1
                    while k < n and text[k] != '"' and text[k] != "\n":
                        k += 2 if text[k] == "\\" else 1
                    j = k
                elif not depth and text[j] == '"':
                    break
                elif text[j] == "\n":
                    break
                j += 1
            body = text[i + 1:j]
            end = j + 1
            if body in keys:
                kind, tok, pos = prev_token(text, i)
                after = next_char(text, end)
                top = stack[-1] if stack else None
                name = member_name(body)
                if (top == "array" and after == ":") or (top == "subscript" and kind == "char" and tok == "["):
                    # a strings table's own text: a dictionary literal's key or a subscript
                    out.append(text[last:i])
                    out.append(f"StringKey.{name}.rawValue")
                    last = end
                    changed += 1
                else:
                    # `.aB` where the type is known: a call's argument (also a ternary's branch
                    # or a labelled one), a return, a comparison; `StringKey.aB` elsewhere.
                    direct = (top == "call" and kind == "char" and tok in "(,?:") \
                        or (kind == "word" and tok == "return") \
                        or (kind == "char" and tok == "=" and pos > 0 and text[pos - 1] in "=!")
                    rep = f".{name}" if direct else f"StringKey.{name}"
                    out.append(text[last:i])
                    out.append(rep)
                    last = end
                    changed += 1
            elif re.match(r"^[a-z][A-Za-z]*(\.[A-Za-z0-9]+)*\.\\\(", body) and body.split(".")[0] in {k.split(".")[0] for k in keys}:
                report.append(f"{where()}: built key \"{body}\": make it a switch returning StringKey cases")
            i = end
            continue
        if c in "([":
            kind, tok, _ = prev_token(text, i)
            attached = i > 0 and text[i - 1] not in " \t\r\n"
            callish = (kind == "word" and tok not in KEYWORDS_BEFORE_PAREN) or (kind == "char" and tok in ")]?!>")
            if c == "(":
                stack.append("call" if callish and attached else "paren")
            else:
                stack.append("subscript" if callish and attached else "array")
        elif c == "{":
            stack.append("brace")
        elif c in ")]}":
            if stack:
                stack.pop()
        i += 1
    out.append(text[last:])
    return "".join(out), changed


DECL = re.compile(r"(\bfunc\s+\w+\s*(?:<[^>]*>)?\([^{]*?\)\s*->\s*|\bvar\s+\w+\s*:\s*)String(\s*\{)")


def retype(text, names, path, report):
    """A `-> String` function or `: String` computed property that now returns a key case
    (`return .tabHome`, what the rewrite above made of `return "tab.home"`) returns StringKey."""
    out, last, changed = [], 0, 0
    for m in DECL.finditer(text):
        start = m.end() - 1  # the body's `{`
        depth, j = 0, start
        while j < len(text):
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        body = text[start:j]
        returned = re.findall(r"\breturn\s+\.(\w+)\b", body)
        if any(r in names for r in returned):
            out.append(text[last:m.start()])
            out.append(m.group(1) + "StringKey" + m.group(2))
            last = m.end()
            changed += 1
            report.append(f"{path}:{text.count(chr(10), 0, m.start()) + 1}: returns StringKey now (was String)")
    out.append(text[last:])
    return "".join(out), changed


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else ".")
    with open(os.path.join(root, "Resources", "strings", "en.json"), encoding="utf-8") as f:
        keys = set(json.load(f))
    names = {member_name(k) for k in keys}
    report, notes, total, retyped_total, files = [], [], 0, 0, 0
    for top in ("Sources", "Tests"):
        for dp, dn, fn in os.walk(os.path.join(root, top)):
            dn.sort()
            rel_dir = os.path.relpath(dp, root)
            if any(rel_dir == d or rel_dir.startswith(d + os.sep) for d in SKIP_DIRS):
                continue
            for f in sorted(fn):
                if not f.endswith(".swift"):
                    continue
                p = os.path.join(dp, f)
                rel = os.path.relpath(p, root)
                if rel in SKIP_FILES:
                    continue
                with open(p, encoding="utf-8") as fh:
                    text = fh.read()
                new, changed = rewrite(text, keys, rel, report)
                new, retyped = retype(new, names, rel, notes)
                if changed or retyped:
                    with open(p, "w", encoding="utf-8") as fh:
                        fh.write(new)
                    total += changed
                    retyped_total += retyped
                    files += 1
    print(f"codemod-string-keys: {total} literal keys rewritten, {retyped_total} declarations retyped, in {files} files")
    for r in notes:
        print("  " + r)
    if report:
        print(f"not rewritten ({len(report)}):")
        for r in report:
            print("  " + r)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
