#!/usr/bin/env bash
# Sanitizer and memory checks of the generated C.
#
#   tests/sanitize.sh            everything below (CI runs this)
#   SANITIZE_PROGRAMS=500 tests/sanitize.sh   more random programs
#
# 1. Every example, every test program and (when ../shared exists) every
#    conformance program is compiled to C, built with
#    -fsanitize=address,undefined -fno-sanitize-recover=all, run on its
#    input, and must print exactly what `icp2c run` prints, with the same
#    exit status and error line: a sanitizer report changes stderr and the
#    status, so it fails the comparison.
# 2. A batch of random programs of both languages, the same way (the
#    differential test with ICP2C_SANITIZE=1); the CHEG engines of the
#    examples and of random programs, with random UCI sessions, the same
#    way (tests/it/cheg.rs, tests/it/cheg_differential.rs), the engines playing
#    (tests/it/cheg_play.rs: stop, isready and quit during a search, limits,
#    long lines), and valgrind on one.
# 3. valgrind (memcheck, leaks included) on a sample, built without
#    sanitizers.
# 4. Stress: coordinates at the signed 64-bit edges and huge relative
#    offsets; 10^6 pieces; a program that allocates until `ulimit -v`
#    stops it, which must end with the one-line "memory exhausted" error
#    and exit status 1 in C, Rust and `icp2c run`, never a crash.
#
# Skips (exit 0, with a message) only when cc cannot build a sanitized
# program at all.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf 'int main(void){return 0;}\n' > "$work/probe.c"
if ! cc -fsanitize=address,undefined "$work/probe.c" -o "$work/probe" 2> "$work/probe.err" || ! "$work/probe"; then
  echo "sanitize: SKIPPED, cc cannot build with -fsanitize=address,undefined:"
  cat "$work/probe.err"
  exit 0
fi

cargo build --release --quiet
icp2c="${CARGO_TARGET_DIR:-target}/release/icp2c"
SAN=(-std=c99 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
export ASAN_OPTIONS=detect_leaks=1:exitcode=86
export UBSAN_OPTIONS=print_stacktrace=1:exitcode=87
failures=0
runs=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run_case FILE INPUT BUILD_FLAGS... : compares the sanitized C with `icp2c run`.
sanitized_case() {
  local src=$1 input=$2 name
  name=$(basename "$src" | tr -c 'A-Za-z0-9_.\n' _)
  local c="$work/$name.c" exe="$work/$name.exe"
  if ! "$icp2c" "$src" -o "$c" 2> /dev/null; then
    return 0 # a compile-error program: nothing to run
  fi
  if ! cc "${SAN[@]}" "$c" -o "$exe" 2> "$work/cc.err"; then
    fail "$src: cc with sanitizers failed: $(head -5 "$work/cc.err")"
    return 0
  fi
  local want_status=0 got_status=0
  "$icp2c" run "$src" < "$input" > "$work/want.out" 2> "$work/want.err" || want_status=$?
  "$exe" < "$input" > "$work/got.out" 2> "$work/got.err" || got_status=$?
  runs=$((runs + 1))
  # `icp2c run` also prints the program's warnings; the runtime error line
  # is the one starting with "error: ".
  grep '^error: ' "$work/want.err" > "$work/want.line" || true
  if [ "$want_status" != "$got_status" ] || ! cmp -s "$work/want.out" "$work/got.out" \
    || ! cmp -s "$work/want.line" "$work/got.err"; then
    fail "$src: sanitized C exit $got_status (run: $want_status); stderr: $(head -c 2000 "$work/got.err")"
  fi
}

echo "== sanitizers: examples, test programs, conformance programs"
programs=(examples/*.icp examples/*.fin tests/programs/icp/*.icp tests/programs/finvara/*.fin)
for shared in ../shared /work/shared; do
  if [ -d "$shared/conformance" ]; then
    programs+=("$shared"/conformance/icp/*.icp "$shared"/conformance/finvara/*.fin)
    break
  fi
done
for src in "${programs[@]}"; do
  [ -e "$src" ] || continue
  input="${src%.*}.in"
  [ -e "$input" ] || input=/dev/null
  sanitized_case "$src" "$input"
done
echo "   $runs sanitized runs"

echo "== sanitizers: stress programs"
stress="$work/stress"
mkdir -p "$stress"
M=9223372036854775807
N=-9223372036854775808
cat > "$stress/edges.icp" <<EOF
# Coordinates at the signed 64-bit edges, huge relative offsets.
1. k=K$M,$M
2. k;1,0 ?4
3. "F king off the edge
4. k;$M,$M ?6
5. "F huge offset
6. k;-1,-1 ?8
7. "F back in
8. r=R$N,$N
9. r,$N,$M ?11
10. "F rook along the bottom edge
11. b=B0,0
12. b,$M,$M ?14
13. "F bishop to the corner
14. q=q$N,$M
15. q;$M,$N ?17
16. "F queen far
17. q;-1,1 ?19
18. "F queen off the edge
19. $M,$M,$N,$N ?21
20. "F a move from the corner across the board
21. n=N$N,$N
22. n;2,1 ?24
23. "F knight at the edge
24. n;-2,-1 ?26
25. "F knight out
26. p=p$N,0
27. p;-1,0 ?29
28. "F black pawn off the bottom
29. P=P$M,5
30. P;1,0 ?32
31. "F white pawn off the top
32. x=k0,$M
33. y=R0,$N
34. x;1,0 ?36
35. "F king leaving the rook's line
36. %k
37. %r
38. %b
39. %q
40. %n
EOF
: > "$stress/edges.in"
sanitized_case "$stress/edges.icp" "$stress/edges.in"

# 10^6 pieces: black rooks on column 5, rows 1..10^6, read from input; a
# white king then tries squares they attack.
cat > "$stress/million.icp" <<'EOF'
1. a=r*,5 ?1
2. %a
3. K=K0,0
4. K,0,5 ?6
5. "F king into the rooks' file
6. K;1,1 ?8
7. "F king next to a rook
8. K;-1,-1 ?10
9. "F king back
10. a;1,0 ?12
11. "F newest rook up
12. %a
EOF
seq 1 1000000 > "$stress/million.in"
sanitized_case "$stress/million.icp" "$stress/million.in"

echo "== memory exhaustion under ulimit -v"
# Places pieces until memory runs out: C, Rust and the interpreter must all
# stop with the one-line error and exit status 1.
cat > "$stress/oom.icp" <<'EOF'
1. a=N*,* ?1
2. "end of input before memory ran out
EOF
"$icp2c" "$stress/oom.icp" -o "$work/oom.c"
cc -std=c99 -O2 "$work/oom.c" -o "$work/oom_c"
"$icp2c" --target rust "$stress/oom.icp" -o "$work/oom.rs"
rustc --edition 2021 -O "$work/oom.rs" -o "$work/oom_rs" 2> /dev/null
for target in oom_c oom_rs run; do
  if [ "$target" = run ]; then cmd=("$icp2c" run "$stress/oom.icp"); else cmd=("$work/$target"); fi
  status=0
  (
    ulimit -v 150000
    awk 'BEGIN { for (i = 0; i < 20000000; i++) print i, -i }' | "${cmd[@]}" > /dev/null 2> "$work/oom.err"
  ) || status=$?
  runs=$((runs + 1))
  if [ "$status" != 1 ] || ! grep -q "memory exhausted" "$work/oom.err" || [ "$(wc -l < "$work/oom.err")" != 1 ]; then
    fail "oom [$target]: exit $status, stderr: $(head -c 500 "$work/oom.err")"
  else
    echo "   oom [$target]: $(cat "$work/oom.err")"
  fi
done

echo "== valgrind sample"
if command -v valgrind > /dev/null; then
  vruns=0
  for src in examples/*.icp examples/*.fin tests/programs/icp/check_pins.icp tests/programs/icp/names_newest.icp \
    tests/programs/finvara/holes_choice.fin tests/programs/finvara/promotion.fin; do
    [ -e "$src" ] || continue
    input="${src%.*}.in"
    [ -e "$input" ] || input=/dev/null
    name=$(basename "$src")
    "$icp2c" "$src" -o "$work/v_$name.c"
    cc -std=c99 -O1 -g "$work/v_$name.c" -o "$work/v_$name"
    status=0
    valgrind -q --error-exitcode=88 --leak-check=full --errors-for-leak-kinds=definite,indirect \
      "$work/v_$name" < "$input" > /dev/null 2> "$work/v.err" || status=$?
    vruns=$((vruns + 1))
    runs=$((runs + 1))
    if [ "$status" = 88 ] || grep -q "==[0-9]*==" "$work/v.err"; then
      fail "valgrind $src: $(head -c 2000 "$work/v.err")"
    fi
  done
  echo "   $vruns valgrind runs"
else
  echo "   valgrind not installed: skipped"
fi

echo "== sanitizers: random programs of both languages"
if ICP2C_SANITIZE=1 ICP2C_DIFF_PROGRAMS="${SANITIZE_PROGRAMS:-40}" \
  cargo test --quiet --test it -- differential::random_ 2>&1 | tail -5; then
  :
else
  fail "random programs under sanitizers"
fi

echo "== sanitizers: CHEG engines (examples on every query kind and a UCI session; random programs and sessions)"
if ICP2C_SANITIZE=1 ICP2C_CHEG_PROGRAMS="${SANITIZE_PROGRAMS:-40}" \
  cargo test --quiet --test it -- cheg::generated_c cheg_differential::random_ 2>&1 | tail -5; then
  :
else
  fail "CHEG engines under sanitizers"
fi
echo "== sanitizers: CHEG engines playing (stop, isready, quit during a search; limits; long lines)"
if ICP2C_SANITIZE=1 cargo test --quiet --test it -- cheg_play:: 2>&1 | tail -5; then
  :
else
  fail "CHEG engines playing under sanitizers"
fi
if command -v valgrind > /dev/null; then
  "$icp2c" examples/krk.cheg -o "$work/krk.c"
  cc -std=c99 -O1 -g "$work/krk.c" -o "$work/krk"
  for mode in query uci; do
    status=0
    args=()
    [ "$mode" = query ] && args=(--fen "8/8/8/4k3/8/8/8/R3K3 w - - 0 1" --depth 3)
    printf 'uci\nposition startpos moves e2e4\ngo depth 2\nposition fen 8/8 w\nbogus\nquit\n' |
      valgrind -q --error-exitcode=88 --leak-check=full --errors-for-leak-kinds=definite,indirect \
      "$work/krk" "${args[@]}" > /dev/null 2> "$work/v.err" || status=$?
    runs=$((runs + 1))
    if [ "$status" = 88 ] || grep -q "==[0-9]*==" "$work/v.err"; then
      fail "valgrind krk engine ($mode): $(head -c 2000 "$work/v.err")"
    fi
  done
fi

echo "sanitize: $runs runs of examples, test, conformance and stress programs; $failures failures"
[ "$failures" = 0 ]
