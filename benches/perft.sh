#!/usr/bin/env bash
# Move-generation benchmark of the CHEG engine (spec/cheg.md §7.4):
# `icp2c run PROG.cheg --fen FEN --perft N` on the standard positions,
# nodes per second, and Stockfish's `go perft` on the same machine when it
# is installed (Debian: apt-get install stockfish; skipped with a message
# otherwise). Usage: bash benches/perft.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/icp2c
deep=6
[ "${1:-}" = "--quick" ] && deep=5
start="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
kiwi="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
pos3="8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
now() { date +%s.%N; }
printf '%-10s %5s %12s %8s %10s\n' position depth nodes seconds Mnodes/s
for row in "start|$start|5" "start|$start|$deep" "kiwipete|$kiwi|4" "kiwipete|$kiwi|$((deep - 1))" "cpw3|$pos3|$deep"; do
  IFS='|' read -r name fen depth <<< "$row"
  t0=$(now)
  nodes=$("$bin" run examples/krk.cheg --fen "$fen" --perft "$depth")
  t1=$(now)
  python3 -c "import sys; n,a,b=int(sys.argv[1]),float(sys.argv[2]),float(sys.argv[3]); print(f'%-10s %5s %12d %8.3f %10.1f' % (sys.argv[4], sys.argv[5], n, b-a, n/(b-a)/1e6))" "$nodes" "$t0" "$t1" "$name" "$depth"
done
sf=$(command -v stockfish || command -v /usr/games/stockfish || true)
if [ -n "$sf" ]; then
  t0=$(now)
  printf 'position startpos\ngo perft %s\nquit\n' "$deep" | "$sf" | grep '^Nodes searched'
  t1=$(now)
  python3 -c "import sys; print(f'stockfish perft {sys.argv[3]} (start): {float(sys.argv[2])-float(sys.argv[1]):.3f} s')" "$t0" "$t1" "$deep"
else
  echo "stockfish is not installed (apt-get install stockfish): the comparison is skipped"
fi
