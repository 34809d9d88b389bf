// ------------------------------------------------------ the program hook

// @section frames: fell_into_fence
/// What a call does with its result when the subroutine returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Then {
    // @section set
    /// `SET w,t,v`: store it.
    Store(Var),
    // @end set
    // @section cond
    /// `COND c,t1,t2`: if it satisfies c go to t2.
    Cond(Cond, usize),
    // @end cond
    // @section condtf
    /// `CONDT`/`CONDF`: a logical; go to the target if it equals the flag.
    CondTF(bool, usize),
    // @end condtf
    // @section each
    /// `SELECT`/`MAP`: collecting over the set's elements.
    Each {
        /// Select or map.
        kind: CallKind,
        /// Where the set goes.
        dst: Var,
        /// The subroutine.
        sub: usize,
        /// The elements.
        items: Items,
        /// The element being processed.
        next: usize,
        /// What has been collected.
        acc: Vec<Value>,
    },
    // @end each
}
// @end frames

/// Where control goes after one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    // @section next
    /// The next statement.
    Next,
    // @end next
    // @section branch
    /// A jump.
    Goto(usize),
    // @end branch
    // @section call
    /// Call `sub` with `X` = `arg`; `then` says what to do with the result.
    Call {
        /// The subroutine's first statement.
        sub: usize,
        /// X for the call.
        arg: Value,
        /// The continuation.
        then: Then,
    },
    // @end call
    // @section each
    /// `SELECT`/`MAP` over a set (`Then::Each` is built by the runtime).
    Each {
        /// Which.
        kind: CallKind,
        /// Where the result goes.
        dst: Var,
        /// The subroutine.
        sub: usize,
        /// The set.
        set: Value,
    },
    // @end each
    // @section enter: x entered
    /// A call in a program without `RETURN`: the subroutine never comes
    /// back (it ends the invocation), so only `X` and the depth of calls
    /// matter (§5.2).
    Enter {
        /// The subroutine's first statement.
        sub: usize,
        /// X for the call.
        arg: Value,
    },
    // @end enter
    // @section enter_each: x entered write set_owned items val_set
    /// `SELECT`/`MAP` in a program without `RETURN`: an empty set gives
    /// the empty set, else the subroutine is entered with its first
    /// element, never to come back.
    EnterEach {
        /// Where the (empty) result goes.
        dst: Var,
        /// The subroutine.
        sub: usize,
        /// The set.
        set: Value,
    },
    // @end enter_each
    // @section return
    /// `RETURN v`.
    Return(Value),
    // @end return
    // @section stray
    /// `RETURN v` in a program that calls no subroutine: always outside
    /// one (§5.2).
    Stray,
    // @end stray
    /// An `ENTRY` or `END` line was reached.
    Fence,
    // @section leave
    /// The invocation ends with `LEAVE` (§6.3).
    Leave,
    // @end leave
    // @section step_outcome
    /// The invocation's outcome is decided (a node value, or a move at the
    /// root).
    Outcome(Outcome),
    // @end step_outcome
}

/// An invocation's outcome (§6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Proceed as if the program were absent.
    Leave,
    // @section outcome_value: step_outcome
    /// The node's value.
    Value(i64),
    // @end outcome_value
    // @section outcome_move: step_outcome
    /// At the root: a move and its value.
    Move(Move, i64),
    // @end outcome_move
}

/// An `ENTRY` line as the runtime matches it (§6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntrySpec {
    /// First statement to execute (the one after the `ENTRY` line).
    pub start: usize,
    /// Side to move: queens, rooks, bishops, knights, pawns (`None`: any).
    pub mover: (u8, u8, u8, u8, Option<u8>),
    /// The other side, likewise.
    pub other: (u8, u8, u8, u8, Option<u8>),
    /// Pawn difference condition: how the side to move's pawns minus the
    /// other side's compare with m (less, equal, greater), and m.
    pub pawn_diff: Option<(std::cmp::Ordering, i8)>,
}

/// The endgame program as the search sees it: implemented by the
/// interpreter (walking the IR) and by generated code (a `match` on the
/// statement number).
pub trait Endgame {
    /// The `ENTRY` lines in source order.
    fn entries(&self) -> &[EntrySpec];
    /// The source line of statement `pc` (for errors and `BREAK`).
    fn line(&self, pc: usize) -> u32;
    // @section var_user
    /// How many user variables the program has.
    fn user_vars(&self) -> usize;
    // @end var_user
    /// Executes statement `pc` and says where control goes.
    fn step(&self, pc: usize, inv: &mut Invocation<'_, '_>) -> Result<Step, Error>;
}

/// A plan (§6.4): the tag's statement, the plan variable, and the plan's
/// part of the transposition table's node keys ([`plan_key`]).
type Plan = Option<(usize, Value, u64)>;

/// The plans in force, per absolute colour (White, Black).
type Plans = [Plan; 2];

/// What consulting the program at a node gives (§6.1, §6.3).
type Consulted = Result<Outcome, RuntimeError>;

fn colour_index(c: Colour) -> usize {
    match c {
        Colour::White => 0,
        Colour::Black => 1,
    }
}

// @section frames
/// One call frame.
#[derive(Debug)]
struct Frame {
    /// Where to continue.
    return_to: usize,
    /// X before the call.
    saved_x: Value,
    /// What to do with the result.
    then: Then,
}
// @end frames

/// One invocation (§6.1): the node, the variables, the state of §6.3.
pub struct Invocation<'s, 'p> {
    // @section inv_node
    /// The node.
    pub node: Node,
    // @end inv_node
    // @section x
    /// `X`.
    pub x: Value,
    // @end x
    // @section side
    /// `SIDE`.
    pub side: Value,
    // @end side
    // @section var_user
    /// User variables by slot.
    pub vars: Vec<Value>,
    // @end var_user
    // @section inv_plans
    /// The plans moves searched by this invocation carry (§11.15).
    plans: Plans,
    // @end inv_plans
    // @section best
    /// `TRY`/`PLAN`'s best (move, value).
    best: Option<(Move, i64)>,
    // @end best
    // @section remembered
    /// The value `VALON`/`VALRUT` remembered.
    remembered: Option<i64>,
    // @end remembered
    search: &'s mut Search<'p>,
    /// The statement to execute next.
    pc: usize,
}

/// The search's shared state.
pub struct Search<'p> {
    program: Option<&'p dyn Endgame>,
    // @section break
    breaks: &'p mut dyn Write,
    // @end break
    nodes: u64,
    /// `go nodes N` (§7.5): no node beyond it.
    node_limit: u64,
    /// Asked every [`POLL_INTERVAL`] ticks whether to stop.
    watch: &'p mut dyn Watch,
    /// Nodes and statements since the watch was last asked.
    ticks: u32,
    /// Set when a limit or the watch stopped the search: the
    /// [`RuntimeError`] that unwinds it then is only that signal.
    stopped: bool,
    table: &'p mut Table,
    history: &'p History,
    /// The Endgame switch's part of the node keys.
    endgame_key: u64,
    /// The principal variation of each node with plies left, by DEPTH.
    pv: Vec<Vec<Move>>,
    /// Two quiet moves per DEPTH that cut off a search (killer moves).
    killers: Vec<[Option<Move>; 2]>,
}

// @section inv_impl
impl Invocation<'_, '_> {
    // @section read: inv_impl
    /// Reads a variable (§3).
    pub fn read(&self, var: Var) -> Value {
        match var {
            // @section var_user
            Var::User(slot) => self
                .vars
                .get(slot as usize)
                .cloned()
                .unwrap_or(Value::Undefined),
            // @end var_user
            // @section var_x: x
            Var::X => self.x.clone(),
            // @end var_x
            // @section var_depth: inv_node node_depth val_integer
            Var::Depth => Value::Integer(self.node.depth),
            // @end var_depth
            // @section var_plies: inv_node node_plies val_integer
            Var::Plies => Value::Integer(self.node.plies),
            // @end var_plies
            // @section var_lm: inv_node
            Var::Lm => self.node.legal_moves(),
            // @end var_lm
            // @section var_pg: inv_node
            Var::Pg => self.node.pawn_groups(),
            // @end var_pg
            // @section var_side: side
            Var::Side => self.side.clone(),
            // @end var_side
            // @section var_piece: inv_node piece_variable
            Var::Piece {
                mover,
                kind,
                index: i,
            } => self.node.piece_variable(mover, kind, i),
            // @end var_piece
        }
    }
    // @end read

    // @section write: inv_impl
    /// Writes a variable (only user variables and `SIDE` are writable; the
    /// front end guarantees it).
    pub fn write(&mut self, var: Var, value: Value) {
        if let Some(slot) = self.slot(var) {
            *slot = value;
        }
    }

    /// Where a writable variable's value is kept.
    fn slot(&mut self, var: Var) -> Option<&mut Value> {
        match var {
            // @section var_user
            Var::User(slot) => self.vars.get_mut(slot as usize),
            // @end var_user
            // @section var_side
            Var::Side => Some(&mut self.side),
            // @end var_side
            // @section var_readonly
            _ => None,
            // @end var_readonly
        }
    }
    // @end write

    // @section take: read write inv_impl
    /// Takes the value of a U argument (§4) to change it, leaving the
    /// variable undefined until it is written back: a set that only the
    /// variable held is then changed in place, not copied (§2's value
    /// semantics, copy on write). A runtime error in between ends the
    /// search, so nothing sees the variable undefined.
    fn take(&mut self, var: Var) -> Value {
        let value = self.read(var);
        self.write(var, Value::Undefined);
        value
    }
    // @end take

    // @section root: inv_node node_depth inv_impl
    /// True at the root of the search (DEPTH 1, §7.3): the invocation may
    /// choose the move.
    fn root(&self) -> bool {
        self.node.depth == 1
    }
    // @end root

    // @section cond_arg: inv_impl
    /// A condition applied to a value (§4); an empty one is always true.
    pub fn test(&self, cond: Cond, value: &Value) -> Result<bool, Fault> {
        match (cond, value) {
            // @section condition: cond_arg inv_node side
            (Some((negated, test)), value) => {
                Ok(self.node.test(test, value, &self.side)? != negated)
            }
            // @end condition
            (None, _) => Ok(true),
        }
    }
    // @end cond_arg

    // @section unary: write inv_node inv_impl
    /// `OP w,v` (§5.1).
    pub fn unary(&mut self, op: Unary, dst: Var, v: &Value) -> Result<(), Fault> {
        let value = self.node.unary(op, v)?;
        self.write(dst, value);
        Ok(())
    }
    // @end unary

    // @section binary: write inv_node inv_impl
    /// `OP w,a,b` (§5.1). `w`'s old value is let go first (a runtime
    /// error ends the search, so nothing can see it missing): when `a` is
    /// the set `w` held and nothing else holds it, `APPEND w,w,b` and
    /// `UNION w,w,b` extend it in place.
    pub fn binop(&mut self, op: Binary, w: Var, a: Value, b: &Value) -> Result<(), Fault> {
        self.write(w, Value::Undefined);
        let value = self.node.binary(op, a, b)?;
        self.write(w, value);
        Ok(())
    }
    // @end binary

    // @section exch: read write inv_impl
    /// `EXCH u1,u2`.
    pub fn exch(&mut self, u1: Var, u2: Var) {
        let (a, b) = (self.read(u1), self.read(u2));
        self.write(u1, b);
        self.write(u2, a);
    }
    // @end exch

    // @section selecc: write cond_arg want_set val_set inv_impl
    /// `SELECC w,c,v`: the elements of set v that satisfy c.
    pub fn selecc(&mut self, dst: Var, cond: Cond, v: &Value) -> Result<(), Fault> {
        let mut kept = Vec::new();
        for item in set(v)? {
            if self.test(cond, item)? {
                kept.push(item.clone());
            }
        }
        self.write(dst, Value::Set(kept.into()));
        Ok(())
    }
    // @end selecc

    // @section setel: take write inv_impl
    /// `SETEL v,u,i`.
    pub fn set_element(&mut self, v: Value, u: Var, i: &Value) -> Result<(), Fault> {
        let updated = set_element(v, self.take(u), i)?;
        self.write(u, updated);
        Ok(())
    }
    // @end setel

    // @section insert: take write inv_impl
    /// `INSERT v,u,i`.
    pub fn insert(&mut self, v: Value, u: Var, i: &Value) -> Result<(), Fault> {
        let updated = insert_element(v, self.take(u), i)?;
        self.write(u, updated);
        Ok(())
    }
    // @end insert

    // @section unsert: take write inv_impl
    /// `UNSERT w,u,i`: all read first, then written left to right (§11.9).
    pub fn unsert(&mut self, w: Var, u: Var, i: &Value) -> Result<(), Fault> {
        let (removed, rest) = remove_element(self.take(u), i)?;
        self.write(w, removed);
        self.write(u, rest);
        Ok(())
    }
    // @end unsert

    // @section exchwe: read take write inv_impl
    /// `EXCHWE u1,u2,i` (§11.9).
    pub fn exchwe(&mut self, u1: Var, u2: Var, i: &Value) -> Result<(), Fault> {
        let (a, updated) = exchange_element(self.read(u1), self.take(u2), i)?;
        self.write(u1, a);
        self.write(u2, updated);
        Ok(())
    }
    // @end exchwe

    // @section exchel: take write inv_impl
    /// `EXCHEL u,i,j`.
    pub fn exchel(&mut self, u: Var, i: &Value, j: &Value) -> Result<(), Fault> {
        let updated = exchange_elements(self.take(u), i, j)?;
        self.write(u, updated);
        Ok(())
    }
    // @end exchel

    // @section cond: cond_arg call x inv_impl
    /// `COND c,t1,t2`: calls `t1` with `X` unchanged.
    pub fn cond(&self, cond: Cond, sub: usize, target: usize) -> Step {
        Step::Call {
            sub,
            arg: self.x.clone(),
            then: Then::Cond(cond, target),
        }
    }
    // @end cond

    // @section condv: cond_arg branch inv_impl
    /// `CONDV c,v,t`.
    pub fn condv(&self, cond: Cond, v: &Value, target: usize) -> Result<Step, Fault> {
        Ok(Invocation::branch(self.test(cond, v)?, target))
    }
    // @end condv

    // @section branch: next inv_impl
    /// `CONDV c,v,t` and `JUMP… a,b,t`: where control goes.
    pub fn branch(taken: bool, target: usize) -> Step {
        if taken {
            Step::Goto(target)
        } else {
            Step::Next
        }
    }
    // @end branch

    // @section outcome: next leave inv_impl
    /// The step after an outcome instruction: `None` goes on.
    pub fn outcome(outcome: Option<Outcome>) -> Step {
        match outcome {
            None => Step::Next,
            Some(Outcome::Leave) => Step::Leave,
            // @section outcome_value
            Some(outcome @ Outcome::Value(_)) => Step::Outcome(outcome),
            // @end outcome_value
            // @section outcome_move
            Some(outcome @ Outcome::Move(..)) => Step::Outcome(outcome),
            // @end outcome_move
        }
    }
    // @end outcome

    // @section order: read write ordering inv_impl
    /// `ORDER u1,u2,o`: `u2` goes first when its key is less than `u1`'s
    /// (`Node::order_key`); as given, nothing changes.
    pub fn order(&mut self, u1: Var, u2: Var, ordering: Ordering) -> Result<(), Fault> {
        let (a, b) = (self.read(u1), self.read(u2));
        let swap = ordering != Ordering::AsGiven;
        // @section sort: inv_node
        let swap = swap && {
            let ka = self.node.order_key(&a, ordering)?;
            self.node.order_key(&b, ordering)? < ka
        };
        // @end sort
        if swap {
            self.write(u1, b);
            self.write(u2, a);
        }
        Ok(())
    }
    // @end order

    // @section break: inv_impl
    /// `BREAK v1,v2,v3` at `line`.
    pub fn break_line(&mut self, line: u32, a: &Value, b: &Value, c: &Value) {
        let _ = writeln!(self.search.breaks, "break {line}: {a} {b} {c}");
    }
    // @end break

    // @section moves_of: inv_node cond_arg want_set want_move node_legal order_items inv_impl
    /// The legal moves of `set` satisfying `cond`, ordered (§6.3).
    fn moves_of(
        &self,
        set_value: &Value,
        cond: Cond,
        ordering: Ordering,
    ) -> Result<Vec<Value>, Fault> {
        let mut out = Vec::new();
        for item in set(set_value)? {
            let m = move_value(item)?;
            if self.node.legal(m).is_some() && self.test(cond, item)? {
                out.push(item.clone());
            }
        }
        self.node.order(&mut out, ordering)?;
        Ok(out)
    }
    // @end moves_of

    // @section search_move: inv_node inv_plans node_depth node_plies move_value_type board_move inv_impl
    /// Searches one move with one ply less, carrying this invocation's
    /// plans: −(value after it).
    fn search_move(&mut self, m: MoveValue) -> Result<(Move, i64), RuntimeError> {
        let mv = m.board_move();
        let child = self.node.position.play(mv);
        let plans = self.plans.clone();
        let (plies, depth) = (self.node.plies - 1, self.node.depth + 1);
        let v = self.search.exact(&child, plies, depth, &plans)?;
        Ok((mv, v.wrapping_neg()))
    }
    // @end search_move

    // @section play: moves_of inv_impl
    /// `PLAY`/`PLAYB`/`TRY s,c,o` (§6.3); `Ok(None)`: go on.
    pub fn play(
        &mut self,
        kind: PlayKind,
        set_value: &Value,
        cond: Cond,
        ordering: Ordering,
    ) -> Result<Option<Outcome>, Error> {
        let moves = self.moves_of(set_value, cond, ordering)?;
        match kind {
            // @section play_play: want_move remembered root outcome_value outcome_move inv_node
            PlayKind::Play => {
                let Some(first) = moves.first() else {
                    return Ok(None);
                };
                let value = self.remembered.unwrap_or_else(|| self.node.static_eval());
                let m = move_value(first)?;
                Ok(Some(if self.root() {
                    Outcome::Move(m.board_move(), value)
                } else {
                    Outcome::Value(value)
                }))
            }
            // @end play_play
            // @section play_playb: want_move search_move root outcome_value outcome_move
            PlayKind::PlayB => {
                let mut best: Option<(Move, i64)> = None;
                for item in &moves {
                    let m = move_value(item)?;
                    let (mv, v) = self.search_move(m)?;
                    if best.is_none_or(|(_, b)| v > b) {
                        best = Some((mv, v));
                    }
                }
                Ok(best.map(|(mv, v)| {
                    if self.root() {
                        Outcome::Move(mv, v)
                    } else {
                        Outcome::Value(v)
                    }
                }))
            }
            // @end play_playb
            // @section play_try: try_moves
            PlayKind::Try => self.try_moves(&moves).map(|()| None),
            // @end play_try
        }
    }
    // @end play

    // @section try_moves: want_move search_move best inv_impl
    /// Searches each of `moves` (`TRY`, `PLAN`), keeping the best (move,
    /// value) for `DONE` and `RETBET`.
    fn try_moves(&mut self, moves: &[Value]) -> Result<(), Error> {
        for item in moves {
            let m = move_value(item)?;
            let (mv, v) = self.search_move(m)?;
            if self.best.is_none_or(|(_, b)| v > b) {
                self.best = Some((mv, v));
            }
        }
        Ok(())
    }
    // @end try_moves

    // @section plan: inv_node inv_plans plan_key moves_of try_moves ordering mover inv_impl
    /// `PLAN t,s,v` (§6.4).
    pub fn plan(&mut self, tag: usize, set: &Value, value: Value) -> Result<(), Error> {
        let me = colour_index(self.node.mover());
        let key = plan_key(me, tag, &value);
        self.plans[me] = Some((tag, value, key));
        let moves = self.moves_of(set, None, Ordering::AsGiven)?;
        self.try_moves(&moves)
    }
    // @end plan

    // @section unplan: inv_node inv_plans mover inv_impl
    /// `UNPLAN` (§6.4).
    pub fn unplan(&mut self) {
        let me = colour_index(self.node.mover());
        self.plans[me] = None;
    }
    // @end unplan

    // @section done: best root outcome_value outcome_move inv_impl
    /// `DONE` (§6.3).
    pub fn done(&self) -> Outcome {
        match self.best {
            None => Outcome::Leave,
            Some((mv, v)) if self.root() => Outcome::Move(mv, v),
            Some((_, v)) => Outcome::Value(v),
        }
    }
    // @end done

    // @section value: want_integer inv_node node_depth inv_impl
    /// `VALRET`/`VALRUT`/`VALON`/`RETBET w,l,c` (§6.2–§6.3); `None`: go on.
    pub fn value(
        &mut self,
        kind: ValueKind,
        w: &Value,
        l: &Value,
        c: &Value,
    ) -> Result<Option<Outcome>, Fault> {
        let v = convert(integer(w)?, integer(l)?, integer(c)?, self.node.depth);
        Ok(match (kind, v) {
            // @section valret: root outcome_value
            (ValueKind::ValRet, _) if self.root() => Some(Outcome::Leave),
            (ValueKind::ValRet, v) => Some(Outcome::Value(v)),
            // @end valret
            // @section valrut: root outcome_value
            (ValueKind::ValRut, v) if !self.root() => Some(Outcome::Value(v)),
            (ValueKind::ValRut, _) => {
                // Remembered for `PLAY` (§6.3), when the program plays.
                // @section remembered
                self.remembered = Some(v);
                // @end remembered
                None
            }
            // @end valrut
            // @section valon
            (ValueKind::ValOn, _) => {
                // Remembered for `PLAY` (§6.3), when the program plays.
                // @section remembered
                self.remembered = Some(v);
                // @end remembered
                None
            }
            // @end valon
            // @section retbet: best done
            (ValueKind::RetBet, v) => match self.best {
                Some((_, b)) if b > v => Some(self.done()),
                _ => None,
            },
            // @end retbet
        })
    }
    // @end value
}
// @end inv_impl

/// Static evaluation (§6.2): material, side to move minus the other.
fn static_value(p: &Position) -> i64 {
    let worth = |c: Colour| {
        i64::from(p.count(c, Kind::Pawn)) * 128
            + i64::from(p.count(c, Kind::Knight)) * 384
            + i64::from(p.count(c, Kind::Bishop)) * 400
            + i64::from(p.count(c, Kind::Rook)) * 640
            + i64::from(p.count(c, Kind::Queen)) * 1152
    };
    let me = p.side_to_move();
    worth(me) - worth(me.other())
}

/// The value of a node whose side to move has no legal move (§6.2):
/// checkmated −(28672 − DEPTH), stalemate 0.
fn no_move_value(position: &Position, depth: i64) -> i64 {
    if position.in_check() {
        -(MATE - depth)
    } else {
        0
    }
}

/// Material of one side for `ENTRY` matching.
fn material(p: &Position, c: Colour) -> (u8, u8, u8, u8, u8) {
    let n = |k| p.count(c, k).min(255) as u8;
    (
        n(Kind::Queen),
        n(Kind::Rook),
        n(Kind::Bishop),
        n(Kind::Knight),
        n(Kind::Pawn),
    )
}

fn matches_side(spec: (u8, u8, u8, u8, Option<u8>), have: (u8, u8, u8, u8, u8)) -> bool {
    spec.0 == have.0
        && spec.1 == have.1
        && spec.2 == have.2
        && spec.3 == have.3
        && spec.4.is_none_or(|p| p == have.4)
}

/// The first `ENTRY` matching the position (§6.1).
pub fn match_entry(entries: &[EntrySpec], p: &Position) -> Option<usize> {
    let me = material(p, p.side_to_move());
    let them = material(p, p.side_to_move().other());
    let diff = i64::from(me.4) - i64::from(them.4);
    entries.iter().find_map(|e| {
        let ok = matches_side(e.mover, me)
            && matches_side(e.other, them)
            && e.pawn_diff
                .is_none_or(|(order, m)| diff.cmp(&i64::from(m)) == order);
        ok.then_some(e.start)
    })
}

impl Search<'_> {
    /// Consults the program at a node with a legal move (§6.1): from the
    /// plan of the side to move, or the first matching `ENTRY`. At the
    /// root (DEPTH 1) it may choose the move.
    fn consult(&mut self, node: Node, plans: &Plans) -> Consulted {
        let Some(program) = self.program else {
            return Ok(Outcome::Leave);
        };
        let me = colour_index(node.position.side_to_move());
        let start = match &plans[me] {
            Some((tag, _, _)) => *tag,
            None => match match_entry(program.entries(), &node.position) {
                Some(start) => start,
                None => return Ok(Outcome::Leave),
            },
        };
        let fen = node.position.to_fen();
        let inv = Invocation {
            // @section x
            x: match &plans[me] {
                Some((_, v, _)) => v.clone(),
                None => Value::Undefined,
            },
            // @end x
            // @section side
            side: Value::Undefined,
            // @end side
            // @section var_user
            vars: vec![Value::Undefined; program.user_vars()],
            // @end var_user
            // @section inv_plans
            plans: plans.clone(),
            // @end inv_plans
            // @section best
            best: None,
            // @end best
            // @section remembered
            remembered: None,
            // @end remembered
            // @section inv_node
            node,
            // @end inv_node
            search: self,
            pc: start,
        };
        run_invocation(inv, program, fen)
    }
}

/// Runs `inv` from its first statement (§6.1, §5.2); `fen` is its node's,
/// for runtime errors.
fn run_invocation(
    mut inv: Invocation<'_, '_>,
    program: &dyn Endgame,
    fen: String,
) -> Result<Outcome, RuntimeError> {
    // @section frames
    let mut frames: Vec<Frame> = Vec::new();
    // @end frames
    // @section entered: max_calls fell_into_fence
    // Calls entered (in a program without `RETURN`, none comes back).
    let mut entered = 0;
    // @end entered
    let mut executed: u64 = 0;
    let error = |pc: usize, message: String| RuntimeError {
        line: program.line(pc),
        message,
        fen: fen.clone(),
    };
    loop {
        let pc = inv.pc;
        inv.search.tick()?;
        executed += 1;
        if executed > MAX_STATEMENTS {
            return Err(error(
                pc,
                format!("more than {MAX_STATEMENTS} statements in one invocation (§5.2)"),
            ));
        }
        let step = match program.step(pc, &mut inv) {
            Ok(step) => step,
            Err(Error::Fault(message)) => return Err(error(pc, message)),
            Err(Error::Nested(nested)) => return Err(nested),
        };
        // Where control goes; `Some`: the invocation's outcome.
        let ended = match step {
            // @section next
            Step::Next => {
                inv.pc = pc + 1;
                None
            }
            // @end next
            // @section branch
            Step::Goto(target) => {
                inv.pc = target;
                None
            }
            // @end branch
            // @section call: frames x max_calls
            Step::Call { sub, arg, then } => {
                if frames.len() >= MAX_CALLS {
                    return Err(error(pc, too_deep()));
                }
                let saved_x = std::mem::replace(&mut inv.x, arg);
                frames.push(Frame {
                    return_to: pc + 1,
                    saved_x,
                    then,
                });
                inv.pc = sub;
                None
            }
            // @end call
            // @section each: frames x write set_owned max_calls
            Step::Each {
                kind,
                dst,
                sub,
                set: s,
            } => {
                let items = set_owned(s).map_err(|m| error(pc, m))?;
                if items.is_empty() {
                    inv.write(dst, Value::Set(Items::default()));
                    inv.pc = pc + 1;
                    continue;
                }
                if frames.len() >= MAX_CALLS {
                    return Err(error(pc, too_deep()));
                }
                let arg = items[0].clone();
                let saved_x = std::mem::replace(&mut inv.x, arg);
                frames.push(Frame {
                    return_to: pc + 1,
                    saved_x,
                    then: Then::Each {
                        kind,
                        dst,
                        sub,
                        items,
                        next: 0,
                        acc: Vec::new(),
                    },
                });
                inv.pc = sub;
                None
            }
            // @end each
            // @section enter
            Step::Enter { sub, arg } => {
                if entered >= MAX_CALLS {
                    return Err(error(pc, too_deep()));
                }
                entered += 1;
                inv.x = arg;
                inv.pc = sub;
                None
            }
            // @end enter
            // @section enter_each
            Step::EnterEach { dst, sub, set } => {
                let items = set_owned(set).map_err(|m| error(pc, m))?;
                match items.first() {
                    None => {
                        inv.write(dst, Value::Set(Items::default()));
                        inv.pc = pc + 1;
                    }
                    Some(first) => {
                        if entered >= MAX_CALLS {
                            return Err(error(pc, too_deep()));
                        }
                        entered += 1;
                        inv.x = first.clone();
                        inv.pc = sub;
                    }
                }
                None
            }
            // @end enter_each
            // @section return: frames x stray_return
            Step::Return(value) => {
                let Some(frame) = frames.pop() else {
                    return Err(error(pc, stray_return()));
                };
                inv.x = frame.saved_x;
                // An error of what the call does with the value is the
                // call's (statement `frame.return_to - 1`).
                // After the call, by default; a jump or the next element
                // of a SELECT/MAP goes elsewhere.
                inv.pc = frame.return_to;
                match frame.then {
                    // @section cond: cond_arg
                    Then::Cond(cond, target) => {
                        let yes = inv
                            .test(cond, &value)
                            .map_err(|m| error(frame.return_to - 1, m))?;
                        if yes {
                            inv.pc = target;
                        }
                    }
                    // @end cond
                    // @section condtf: returned_logical
                    Then::CondTF(flag, target) => {
                        let b = returned_logical(&value, "the call")
                            .map_err(|m| error(frame.return_to - 1, m))?;
                        if b == flag {
                            inv.pc = target;
                        }
                    }
                    // @end condtf
                    // @section each: write
                    Then::Each {
                        kind,
                        dst,
                        sub,
                        items,
                        next,
                        mut acc,
                    } => {
                        match (kind, value) {
                            // @section select: returned_logical
                            (CallKind::Select, value) => {
                                let keep = returned_logical(&value, "SELECT's subroutine")
                                    .map_err(|m| error(frame.return_to - 1, m))?;
                                if keep {
                                    acc.push(items[next].clone());
                                }
                            }
                            // @end select
                            // @section map
                            (CallKind::Map, value) => acc.push(value),
                            // @end map
                            // @section interpreter
                            (CallKind::Set, value) => acc.push(value),
                            // @end interpreter
                        }
                        let next = next + 1;
                        if next >= items.len() {
                            inv.write(dst, Value::Set(acc.into()));
                        } else {
                            let arg = items[next].clone();
                            let saved_x = std::mem::replace(&mut inv.x, arg);
                            frames.push(Frame {
                                return_to: frame.return_to,
                                saved_x,
                                then: Then::Each {
                                    kind,
                                    dst,
                                    sub,
                                    items,
                                    next,
                                    acc,
                                },
                            });
                            inv.pc = sub;
                        }
                    }
                    // @end each
                    // @section set: write
                    Then::Store(var) => inv.write(var, value),
                    // @end set
                }
                None
            }
            // @end return
            // @section stray: stray_return
            Step::Stray => return Err(error(pc, stray_return())),
            // @end stray
            Step::Fence => {
                // An `ENTRY` or `END` line: `LEAVE`, unless a subroutine
                // ran into it (§5.2).
                // @section frames
                if !frames.is_empty() {
                    return Err(error(pc, fell_into_fence()));
                }
                // @end frames
                // @section entered
                if entered > 0 {
                    return Err(error(pc, fell_into_fence()));
                }
                // @end entered
                Some(Outcome::Leave)
            }
            // @section leave
            Step::Leave => Some(Outcome::Leave),
            // @end leave
            // @section step_outcome
            Step::Outcome(outcome) => Some(outcome),
            // @end step_outcome
        };
        if let Some(outcome) = ended {
            return Ok(outcome);
        }
    }
}

// @section returned_logical: type_name
/// The logical a subroutine returned to `CONDT`, `CONDF` or `SELECT`
/// (`what`: the call, or `SELECT`'s subroutine): else a runtime error.
fn returned_logical(value: &Value, what: &str) -> Result<bool, Fault> {
    // @section val_logical
    if let Value::Logical(b) = value {
        return Ok(*b);
    }
    // @end val_logical
    Err(format!(
        "{what} must return a logical, got {} {value}",
        type_name(value)
    ))
}
// @end returned_logical

// @section max_calls
/// The runtime error of a call nested too deep (§5.2).
fn too_deep() -> String {
    format!("calls nested more than {MAX_CALLS} deep (§5.2)")
}
// @end max_calls

// @section fell_into_fence
/// The runtime error of a subroutine that reaches an `ENTRY` or `END`
/// line (§5.2).
fn fell_into_fence() -> String {
    "a subroutine fell into an ENTRY or END line (§5.2)".into()
}
// @end fell_into_fence

// @section stray_return
/// The runtime error of a `RETURN` with no call active (§5.2).
fn stray_return() -> String {
    "RETURN outside a subroutine (§5.2)".into()
}
// @end stray_return
