impl Search<'_> {
    /// Counts one tick (a node or a statement): the watch is asked every
    /// [`POLL_INTERVAL`] ticks. Err: the search is stopped.
    fn tick(&mut self) -> Result<(), RuntimeError> {
        if self.stopped {
            return Err(stop_signal());
        }
        self.ticks += 1;
        if self.ticks >= POLL_INTERVAL {
            self.ticks = 0;
            if self.watch.poll() {
                self.stopped = true;
                return Err(stop_signal());
            }
        }
        Ok(())
    }

    /// Counts a node (§11.20), within the node budget.
    fn enter(&mut self) -> Result<(), RuntimeError> {
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return Err(stop_signal());
        }
        self.nodes += 1;
        self.tick()
    }

    fn node_key(&self, position: &Position, plies: i64, depth: i64, plans: &Plans) -> u64 {
        let mut key = position.key()
            ^ mix(((plies + 2) as u64) << 32 | (depth as u64 & 0xffff_ffff))
            ^ self.endgame_key;
        for (_, _, plan) in plans.iter().flatten() {
            key ^= *plan;
        }
        key
    }

    fn clear_pv(&mut self, depth: i64) {
        if let Some(line) = self.pv.get_mut(depth as usize) {
            line.clear();
        }
    }

    /// The node at `depth` has a new best move: its line is `mv` then the
    /// child's.
    fn update_pv(&mut self, depth: i64, mv: Move) {
        let d = depth as usize;
        if d + 1 < self.pv.len() {
            let (this, below) = self.pv.split_at_mut(d + 1);
            if let (Some(line), Some(child)) = (this.get_mut(d), below.first()) {
                line.clear();
                line.push(mv);
                line.extend_from_slice(child);
            }
        }
    }

    fn killers_at(&self, depth: i64) -> [Option<Move>; 2] {
        self.killers
            .get(depth as usize)
            .copied()
            .unwrap_or([None, None])
    }

    fn add_killer(&mut self, depth: i64, mv: Move) {
        if let Some(slot) = self.killers.get_mut(depth as usize) {
            if slot[0] != Some(mv) {
                slot[1] = slot[0];
                slot[0] = Some(mv);
            }
        }
    }

    /// The value of a node with `plies` left at ply `depth` (§7.3, §7.5),
    /// with the plans it inherited, searched with the window (`alpha`,
    /// `beta`) fail-soft: a result in the window is exact; one at or below
    /// `alpha` is an upper bound, one at or above `beta` a lower bound.
    /// Every rule of §7.3 takes a maximum or returns an exact value (the
    /// program's outcome, mate, stalemate, a history draw), so the bounds
    /// are sound, and so are the table's; the exact searches a program asks
    /// for (`TRY`, `PLAYB`, `PLAN`) use the full window.
    fn value(
        &mut self,
        position: &Position,
        plies: i64,
        depth: i64,
        plans: &Plans,
        mut alpha: i64,
        beta: i64,
    ) -> Result<i64, RuntimeError> {
        self.enter()?;
        self.clear_pv(depth);
        if self.history.contains(position) {
            return Ok(0);
        }
        if plies < 0 {
            // Below a `TRY` at the horizon: a quiescence node.
            return self.quiescence_node(position, depth, alpha, beta);
        }
        let key = self.node_key(position, plies, depth, plans);
        let entry = self.table.probe(key, plies, depth);
        if let Some(v) = entry.and_then(|e| e.cutoff(alpha, beta)) {
            return Ok(v);
        }
        let mut moves = Vec::new();
        position.generate(&mut moves);
        if moves.is_empty() {
            return Ok(no_move_value(position, depth));
        }
        let node = Node {
            position: position.clone(),
            // @section node_depth
            depth,
            // @end node_depth
            // @section node_plies
            plies,
            // @end node_plies
        };
        match self.consult(node, plans)? {
            // @section outcome_value
            Outcome::Value(v) => {
                self.table.store(key, plies, depth, v, BOUND_EXACT, None);
                return Ok(v);
            }
            // @end outcome_value
            // @section outcome_move
            Outcome::Move(_, v) => {
                self.table.store(key, plies, depth, v, BOUND_EXACT, None);
                return Ok(v);
            }
            // @end outcome_move
            Outcome::Leave => {}
        }
        let hint = entry.and_then(|e| e.mv);
        let alpha0 = alpha;
        if plies == 0 {
            let q = self.quiescence_moves(position, depth, &moves, hint, alpha, beta)?;
            let (v, mv) = q;
            self.table
                .store(key, plies, depth, v, bound(v, alpha0, beta), mv);
            return Ok(v);
        }
        order_moves(position, &mut moves, hint, self.killers_at(depth));
        let mut best = i64::MIN;
        let mut best_move = None;
        for mv in moves {
            let child = position.play(mv);
            let v = self
                .value(
                    &child,
                    plies - 1,
                    depth + 1,
                    plans,
                    beta.saturating_neg(),
                    alpha.saturating_neg(),
                )?
                .wrapping_neg();
            if v > best || best_move.is_none() {
                best = best.max(v);
                best_move = Some(mv);
            }
            if v > alpha {
                alpha = v;
                self.update_pv(depth, mv);
            }
            if alpha >= beta {
                if !position.is_capture(mv) {
                    self.add_killer(depth, mv);
                }
                break;
            }
        }
        self.table.store(
            key,
            plies,
            depth,
            best,
            bound(best, alpha0, beta),
            best_move,
        );
        Ok(best)
    }

    // @section search_move
    /// The value of a node with the full window: exact.
    fn exact(
        &mut self,
        position: &Position,
        plies: i64,
        depth: i64,
        plans: &Plans,
    ) -> Result<i64, RuntimeError> {
        self.value(position, plies, depth, plans, i64::MIN + 1, i64::MAX)
    }
    // @end search_move

    fn quiescence(
        &mut self,
        position: &Position,
        depth: i64,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, RuntimeError> {
        self.enter()?;
        self.quiescence_node(position, depth, alpha, beta)
    }

    /// A quiescence node already counted (§7.3 rule 3), through the table.
    fn quiescence_node(
        &mut self,
        position: &Position,
        depth: i64,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, RuntimeError> {
        let key = quiescence_key(position, depth);
        let entry = self.table.probe(key, -1, depth);
        if let Some(v) = entry.and_then(|e| e.cutoff(alpha, beta)) {
            return Ok(v);
        }
        let mut moves = Vec::new();
        position.generate(&mut moves);
        if moves.is_empty() {
            return Ok(no_move_value(position, depth));
        }
        let hint = entry.and_then(|e| e.mv);
        let (v, mv) = self.quiescence_moves(position, depth, &moves, hint, alpha, beta)?;
        self.table
            .store(key, -1, depth, v, bound(v, alpha, beta), mv);
        Ok(v)
    }

    /// The quiescence value of a node with legal `moves` (§7.3 rule 3):
    /// the maximum of the static evaluation and of every capture's value,
    /// the captures searched most valuable victim first (the table's move
    /// before them). Also the capture that gave the value, if one did.
    fn quiescence_moves(
        &mut self,
        position: &Position,
        depth: i64,
        moves: &[Move],
        hint: Option<Move>,
        mut alpha: i64,
        beta: i64,
    ) -> Result<(i64, Option<Move>), RuntimeError> {
        let mut best = static_value(position);
        alpha = alpha.max(best);
        if alpha >= beta {
            return Ok((best, None));
        }
        let mut captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| position.is_capture(mv))
            .collect();
        order_moves(position, &mut captures, hint, [None, None]);
        let mut best_move = None;
        for mv in captures {
            let child = position.play(mv);
            let v = self
                .quiescence(
                    &child,
                    depth + 1,
                    beta.saturating_neg(),
                    alpha.saturating_neg(),
                )?
                .wrapping_neg();
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Ok((best, best_move))
    }

    /// One depth of the search from the root (§7.3 at `depth`): the
    /// program consulted, then every legal move, the last depth's best
    /// first (`first`), the others in §7.2 order. A move replaces the best
    /// only with a greater value, or an equal one when it comes before the
    /// best in §7.2 order, so the answer is the first move in §7.2 order
    /// with the greatest value, as §7.3 says. Each move is searched with
    /// the window (best, +∞) (best − 1 for a move before the best): a
    /// result above it is exact. `partial` follows the best so far, for a
    /// search stopped in its first depth. Returns the best move, its
    /// value and the principal variation.
    fn root(
        &mut self,
        position: &Position,
        moves: &[Move],
        depth: u32,
        first: Option<Move>,
        partial: &mut Option<(Move, i64)>,
    ) -> Result<(Move, i64, Vec<Move>), RuntimeError> {
        self.enter()?;
        let plies = i64::from(depth);
        let plans: Plans = [None, None];
        let node = Node {
            position: position.clone(),
            // @section node_depth
            depth: 1,
            // @end node_depth
            // @section node_plies
            plies,
            // @end node_plies
        };
        match self.consult(node, &plans)? {
            // @section outcome_move
            Outcome::Move(mv, v) => {
                *partial = Some((mv, v));
                return Ok((mv, v, vec![mv]));
            }
            // @end outcome_move
            // @section outcome_value
            Outcome::Value(_) => {}
            // @end outcome_value
            Outcome::Leave => {}
        }
        let lead = first.and_then(|f| moves.iter().position(|&m| m == f));
        let mut order: Vec<usize> = lead.into_iter().collect();
        order.extend((0..moves.len()).filter(|&i| Some(i) != lead));
        let mut best: Option<(usize, Move, i64)> = None;
        let mut line = Vec::new();
        for i in order {
            let Some(&mv) = moves.get(i) else {
                continue;
            };
            let alpha = match best {
                None => i64::MIN + 1,
                Some((at, _, b)) if i < at => b.saturating_sub(1),
                Some((_, _, b)) => b,
            };
            let child = position.play(mv);
            let v = self
                .value(
                    &child,
                    plies - 1,
                    2,
                    &plans,
                    i64::MIN + 1,
                    alpha.saturating_neg(),
                )?
                .wrapping_neg();
            let better = match best {
                None => true,
                Some((at, _, b)) if i < at => v >= b,
                Some((_, _, b)) => v > b,
            };
            if better {
                best = Some((i, mv, v));
                *partial = Some((mv, v));
                line.clear();
                line.push(mv);
                line.extend_from_slice(self.pv.get(2).map_or(&[][..], |l| &l[..]));
            }
        }
        match best {
            Some((_, mv, v)) => Ok((mv, v, line)),
            None => Err(stop_signal()),
        }
    }
}

/// Searches `position` (§7.3, §7.5) by iterative deepening: depth
/// `limits.from`, then one more each time, up to `limits.depth`, each a complete §7.3 search at that depth with
/// the history's draws, reported to `watch` when it completes, until a
/// limit or the watch stops it. The answer is the deepest completed
/// depth's best move and score; stopped before depth 1 completed, the best
/// root move searched so far, else the first legal move (§7.5). With the
/// program consulted, or without it (`program` = `None`, `--no-endgame`);
/// `table` is emptied first. `BREAK` lines go to `breaks` (standard
/// error). A position without a legal move is answered with `best` =
/// `None` and its §6.2 value at DEPTH 1.
pub fn search(
    position: &Position,
    limits: Limits,
    program: Option<&dyn Endgame>,
    table: &mut Table,
    history: &History,
    watch: &mut dyn Watch,
    // @section break
    breaks: &mut dyn Write,
    // @end break
) -> Result<SearchResult, RuntimeError> {
    let moves = position.legal_moves();
    let Some(&first_legal) = moves.first() else {
        return Ok(SearchResult {
            best: None,
            score: no_move_value(position, 1),
            nodes: 1,
            depth: 0,
            pv: Vec::new(),
            stopped: false,
        });
    };
    table.new_search();
    let mut search = Search {
        program,
        // @section break
        breaks,
        // @end break
        nodes: 0,
        node_limit: limits.nodes.unwrap_or(u64::MAX),
        watch,
        ticks: 0,
        stopped: false,
        table,
        history,
        endgame_key: if program.is_some() {
            mix(0x0e96_a3e5)
        } else {
            0
        },
        pv: vec![Vec::new(); MAX_PLY],
        killers: vec![[None, None]; MAX_PLY],
    };
    let mut done: Option<(Move, i64, Vec<Move>, u32)> = None;
    let mut partial: Option<(Move, i64)> = None;
    let last = limits.depth.clamp(1, MAX_DEPTH);
    let mut depth = limits.from.clamp(1, last);
    while depth <= last {
        let first = done.as_ref().map(|d| d.0);
        match search.root(position, &moves, depth, first, &mut partial) {
            Ok((mv, v, pv)) => {
                let report = Report {
                    depth,
                    score: v,
                    nodes: search.nodes,
                    pv: pv.clone(),
                };
                done = Some((mv, v, pv, depth));
                if !search.watch.completed(&report) {
                    break;
                }
                depth += 1;
            }
            Err(_) if search.stopped => break,
            Err(_) if limits.exact && depth < last => depth = last,
            Err(error) => return Err(error),
        }
    }
    let (nodes, stopped) = (search.nodes, search.stopped);
    Ok(match done {
        Some((mv, v, pv, depth)) => SearchResult {
            best: Some(mv),
            score: v,
            nodes,
            depth,
            pv,
            stopped,
        },
        None => {
            let (mv, v) = partial.unwrap_or((first_legal, 0));
            SearchResult {
                best: Some(mv),
                score: v,
                nodes,
                depth: 0,
                pv: vec![mv],
                stopped,
            }
        }
    })
}
