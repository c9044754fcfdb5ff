#!/usr/bin/env python3
"""Differential test of hclwright against upstream on a folder of HCL files.

For each file:
  crash      hclwright check / fmt (both profiles) must not panic (exit 101 or
             'panicked' on stderr) and check must exit 0 or 2.
  verdict    hclwright check (0 valid / 2 invalid) vs `terraform fmt -` on
             standard input (0 valid / 2 invalid: same parser as for .tf files).
  hclfmt     for files terraform accepts: `hclwright fmt --profile hclfmt -`
             vs `node /work/shared/oracle/hclfmt.js` (upstream hclwrite.Format).
  terraform  for files terraform accepts: `hclwright fmt --profile terraform -`
             vs `terraform fmt -` output.
  idem       formatting hclwright's own output again changes nothing.

Usage: compare_files.py FILES_DIR OUT_DIR
FILES_DIR holds the files (flat, any names). Writes OUT_DIR/results.tsv,
OUT_DIR/summary.txt and one diff per mismatch. Needs a release build,
`terraform` on PATH (or $TERRAFORM) and the reference formatter installed
(`cd ../shared/oracle && npm install`).
"""
import concurrent.futures as cf, difflib, os, subprocess, sys, tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.environ.get("HCLWRIGHT", os.path.join(REPO, "target/release/hclwright"))
TF = os.environ.get("TERRAFORM", "terraform")
ORACLE = os.path.join(os.path.dirname(REPO), "shared/oracle/hclfmt.js")
ENV = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null", CHECKPOINT_DISABLE="1")


def run(cmd, data):
    p = subprocess.run(cmd, input=data, capture_output=True, env=ENV, timeout=120)
    return p.returncode, p.stdout, p.stderr


def crashed(rc, err):
    return rc == 101 or rc < 0 or b"panicked" in err


def one(path):
    data = open(path, "rb").read()
    r = {"file": os.path.basename(path)}
    rc, _, err = run([HW, "check", "-q", "-"], data)
    r["hw_rc"] = rc
    r["crash"] = crashed(rc, err) or rc not in (0, 2)
    r["hw"] = "valid" if rc == 0 else "invalid"
    rc_t, out_t, err_t = run([TF, "fmt", "-no-color", "-"], data)
    r["tf"] = "valid" if rc_t == 0 else ("invalid" if rc_t == 2 else f"rc{rc_t}")
    r["tf_err"] = " ".join(l.strip() for l in err_t.decode("utf-8", "replace").splitlines()
                           if l.strip().startswith(("Error", "on <stdin>")))[:200]
    r["tf_out"] = out_t
    for prof in ("hclfmt", "terraform"):
        rc_f, out_f, err_f = run([HW, "fmt", "--profile", prof, "-"], data)
        r[f"hw_{prof}_rc"] = rc_f
        r[f"hw_{prof}_out"] = out_f
        if crashed(rc_f, err_f):
            r["crash"] = True
        if rc_f == 0:
            rc2, out2, err2 = run([HW, "fmt", "--profile", prof, "-"], out_f)
            r[f"idem_{prof}"] = rc2 == 0 and out2 == out_f
            if crashed(rc2, err2):
                r["crash"] = True
        else:
            r[f"idem_{prof}"] = None
    return r


def udiff(a, b, an, bn):
    return "".join(difflib.unified_diff(
        a.decode("utf-8", "replace").splitlines(True),
        b.decode("utf-8", "replace").splitlines(True), an, bn))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    files_dir, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    names = sorted(os.listdir(files_dir))
    paths = [os.path.join(files_dir, n) for n in names]
    with cf.ThreadPoolExecutor(4) as ex:
        results = list(ex.map(one, paths))
    # Reference hclfmt for the files terraform accepts, in one node process.
    valid = [r["file"] for r in results if r["tf"] == "valid"]
    ref_dir = tempfile.mkdtemp(prefix="hclfmt-ref-")
    subprocess.run(["node", ORACLE, files_dir, ref_dir], input="\n".join(valid).encode(),
                   check=True, capture_output=True)
    counts = {}

    def bump(k):
        counts[k] = counts.get(k, 0) + 1

    with open(os.path.join(out_dir, "results.tsv"), "w") as tsv:
        tsv.write("file\thw\ttf\tcrash\thclfmt\tterraform\tidem_hclfmt\tidem_terraform\ttf_err\n")
        for r in results:
            f = r["file"]
            bump("crash" if r["crash"] else "no-crash")
            bump("verdict-agree" if r["hw"] == r["tf"] else f"verdict-disagree(hw={r['hw']},tf={r['tf']})")
            hf = tfm = "-"
            if r["tf"] == "valid":
                ref = open(os.path.join(ref_dir, f), "rb").read()
                hf = "same" if r["hw_hclfmt_out"] == ref else "DIFF"
                bump(f"hclfmt-{hf}")
                if hf == "DIFF":
                    open(os.path.join(out_dir, f + ".hclfmt.diff"), "w").write(
                        udiff(ref, r["hw_hclfmt_out"], "upstream-hclfmt", "hclwright"))
                tfm = "same" if r["hw_terraform_out"] == r["tf_out"] else "DIFF"
                bump(f"terraform-{tfm}")
                if tfm == "DIFF":
                    open(os.path.join(out_dir, f + ".terraform.diff"), "w").write(
                        udiff(r["tf_out"], r["hw_terraform_out"], "terraform-fmt", "hclwright"))
            for prof in ("hclfmt", "terraform"):
                if r[f"idem_{prof}"] is False:
                    # Upstream is not always idempotent either: compare second passes.
                    if prof == "terraform":
                        up1 = r["tf_out"]
                        up2 = run([TF, "fmt", "-no-color", "-"], up1)[1]
                    else:
                        up1 = open(os.path.join(ref_dir, f), "rb").read() if r["tf"] == "valid" else None
                        up2 = run(["node", ORACLE], up1)[1] if up1 is not None else None
                    hw2 = run([HW, "fmt", "--profile", prof, "-"], r[f"hw_{prof}_out"])[1]
                    if up1 is not None and up1 != up2 and hw2 == up2:
                        bump(f"not-idempotent-{prof}-like-upstream")
                    else:
                        bump(f"not-idempotent-{prof}-UNLIKE-upstream")
                        r[f"idem_{prof}"] = "UNLIKE"
            tsv.write("\t".join(str(x) for x in (
                f, r["hw"], r["tf"], r["crash"], hf, tfm, r["idem_hclfmt"], r["idem_terraform"],
                r["tf_err"])) + "\n")
    summary = f"{len(results)} files\n" + "".join(f"{k}: {v}\n" for k, v in sorted(counts.items()))
    open(os.path.join(out_dir, "summary.txt"), "w").write(summary)
    print(summary)


if __name__ == "__main__":
    main()
