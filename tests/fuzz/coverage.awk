# coverage.awk — libFuzzer's -print_coverage=1 output to one line per source
# file: edges (instrumented blocks) covered of all, functions reached of all.
# run.sh prints it for the files each harness is about (tests/fuzz/README.md).
/^(UN)?COVERED_FUNC: hits/ {
	split($5, e, "/")
	f = $7
	sub(/:[0-9]+$/, "", f)
	if (match(f, /(simcore|campaigns)\/[^\/]*$/))
		f = substr(f, RSTART)
	tot[f] += e[2]
	nf[f]++
	if ($1 == "COVERED_FUNC:") {
		cov[f] += e[1]
		fn[f]++
	}
}
END {
	for (f in tot)
		if (f ~ want)
			printf "  %-26s edges %5d/%-5d (%4.1f%%)  functions %3d/%d\n", f, cov[f], tot[f],
			       tot[f] ? 100 * cov[f] / tot[f] : 0, fn[f], nf[f]
}
