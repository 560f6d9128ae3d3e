"""Print the declarations Python's own ast module finds, as JSON lines.

premise's Python front end (tree-sitter) must agree with this reference on
every module of the standard library (issue 2). The rules mirror the front
end's contract: functions, async functions and classes at module level or in
class bodies (looking through if/for/while/try/with/match blocks), named
Class.method and Outer.Inner.method; a decorated definition starts at its
first decorator; functions nested in functions are not declarations.

usage: python3 decls.py ROOT  (prints {"path", "decls"} or {"path", "error"})
"""
import ast
import json
import os
import sys
import warnings


def walk(body, prefix, in_class, out):
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            if isinstance(node, ast.ClassDef):
                kind = "class"
            else:
                kind = "method" if in_class else "function"
            name = prefix + node.name
            out.append([name, kind, start, node.end_lineno])
            if isinstance(node, ast.ClassDef):
                walk(node.body, name + ".", True, out)
            continue
        for field in ("body", "orelse", "finalbody"):
            walk(getattr(node, field, None) or [], prefix, in_class, out)
        for h in getattr(node, "handlers", None) or []:
            walk(h.body, prefix, in_class, out)
        for c in getattr(node, "cases", None) or []:
            walk(c.body, prefix, in_class, out)


def main():
    root = sys.argv[1]
    warnings.simplefilter("ignore")
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "dist-packages", "__pycache__"))
        for fn in sorted(filenames):
            if not fn.endswith(".py"):
                continue
            path = os.path.join(dirpath, fn)
            rel = os.path.relpath(path, root)
            try:
                with open(path, "rb") as f:
                    tree = ast.parse(f.read(), path)
            except (SyntaxError, ValueError) as e:
                print(json.dumps({"path": rel, "error": str(e)}))
                continue
            out = []
            walk(tree.body, "", False, out)
            print(json.dumps({"path": rel, "decls": out}))


if __name__ == "__main__":
    main()
