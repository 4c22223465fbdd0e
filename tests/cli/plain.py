# gdb -nx -batch -x plain.py BINARY -ex 'python walk("ft_x_state")': print each
# pointer (or function) inside struct ft_x_state, however deep, as a path;
# then "members N" (the plain members walked).  Run by tests/cli/plain.sh.
import gdb


def walk(name):
    seen = [0]
    found = []

    def visit(t, path, depth):
        t = t.strip_typedefs()
        if depth > 32:
            found.append(path + " (too deep)")
            return
        if t.code in (gdb.TYPE_CODE_PTR, gdb.TYPE_CODE_FUNC, gdb.TYPE_CODE_REF):
            found.append(path)
        elif t.code == gdb.TYPE_CODE_ARRAY:
            visit(t.target(), path + "[]", depth + 1)
        elif t.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            for f in t.fields():
                visit(f.type, path + "." + (f.name or "<anonymous>"), depth + 1)
        else:
            seen[0] += 1

    visit(gdb.lookup_type("struct " + name), name, 0)
    for p in found:
        print("pointer " + p)
    print("members %d" % seen[0])
