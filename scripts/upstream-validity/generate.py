import random, sys
random.seed(int(sys.argv[1]))
N = int(sys.argv[2])
idents = ["a","b","var","local","x","for","in","if","true","null","count","each"]
def ident(): return random.choice(idents)
def expr(d=0):
    r = random.random()
    if d > 3 or r < 0.25:
        return random.choice([ident(), "1", "2.5", "1e3", '"s"', '"${a}"', "true", "null", "-1", "!a"])
    c = random.randint(0, 15)
    e = lambda: expr(d+1)
    return [
        lambda: f"{e()} {random.choice(['+','-','*','/','%','==','!=','<','>=','&&','||'])} {e()}",
        lambda: f"{e()} ? {e()} : {e()}",
        lambda: f"[{', '.join(e() for _ in range(random.randint(0,3)))}{random.choice(['',','])}]",
        lambda: "{" + random.choice([' ', '\n']).join(f"{ident()} {random.choice(['=',':'])} {e()}" + random.choice(['', ',']) for _ in range(random.randint(0,3))) + "}",
        lambda: f"{ident()}({', '.join(e() for _ in range(random.randint(0,3)))}{random.choice(['','...',','])})",
        lambda: f"[for {ident()} in {e()} : {e()}{random.choice(['',' if '+e()])}]",
        lambda: f"{{for {ident()}, {ident()} in {e()} : {e()} => {e()}{random.choice(['','...'])}}}",
        lambda: f"{ident()}.{ident()}",
        lambda: f"{ident()}[{e()}]",
        lambda: f"{ident()}.*.{ident()}",
        lambda: f"{ident()}[*].{ident()}",
        lambda: f"{ident()}.0",
        lambda: f"({e()})",
        lambda: f'"a ${{{e()}}} b"',
        lambda: f'"%{{ if {e()} }}x%{{ else }}y%{{ endif }}"',
        lambda: f"<<EOT\nline ${{{e()}}}\nEOT\n",
    ][c]()
MUT = ["", "", "", "(", ")", "[", "]", "{", "}", ",", "=", "\n", '"', ".", ":", "?", "...", "=>", "${", "%{", "~", "#", "/*", "*/", "\\", "<<", "-"]
def mutate(s):
    if random.random() < 0.5: return s
    i = random.randint(0, len(s))
    if random.random() < 0.5:
        return s[:i] + random.choice(MUT) + s[i:]
    j = min(len(s), i + random.randint(1,3))
    return s[:i] + s[j:]
for k in range(N):
    lines = []
    for _ in range(random.randint(1,3)):
        r = random.random()
        if r < 0.7: lines.append(f"{ident()} = {expr()}")
        elif r < 0.85: lines.append(f'blk "{ident()}" {{\n  {ident()} = {expr()}\n}}')
        else: lines.append(f"blk {{ {ident()} = {expr()} }}")
    src = mutate("\n".join(lines) + "\n")
    open(f"cases/c{k:05d}.tf", "w").write(src)
