// @section read: die
// ---------------------------------------------------------------------------
// Input and output
// ---------------------------------------------------------------------------

/// The integer reader behind every `*` (§6).
///
/// Skips blanks (space, tab, `\r`, `\n`), then reads an optional `-` or `+`
/// and one or more ASCII digits; the number ends at the first non-digit,
/// which is left unread. End of input is sticky: once seen, the reader is
/// never asked again.
pub struct Input<R: BufRead> {
    reader: R,
    eof: bool,
}

impl<R: BufRead> Input<R> {
    /// A reader of integers from `reader` (usually locked, buffered stdin).
    pub fn new(reader: R) -> Self {
        Input { reader, eof: false }
    }

    /// The next byte without consuming it; `None` at end of input.
    fn peek(&mut self) -> Result<Option<u8>, Fault> {
        if self.eof {
            return Ok(None);
        }
        loop {
            match self.reader.fill_buf() {
                Ok(buf) => match buf.first() {
                    Some(&b) => return Ok(Some(b)),
                    None => {
                        self.eof = true;
                        return Ok(None);
                    }
                },
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => return Err(Fault::ReadFailed),
            }
        }
    }

    /// §6: reads one integer. `Ok(None)` at end of input (before any sign
    /// or digit). Errors: [`Fault::NotANumber`] when the first non-blank
    /// text is not `[-+]?[0-9]+`; [`Fault::NumberOutOfRange`] when the value
    /// is outside i64 (`-9223372036854775808` is inside);
    /// [`Fault::ReadFailed`] when the reader fails.
    pub fn read_int(&mut self) -> Result<Option<i64>, Fault> {
        loop {
            match self.peek()? {
                None => return Ok(None),
                Some(b' ' | b'\t' | b'\r' | b'\n') => self.reader.consume(1),
                Some(_) => break,
            }
        }
        let mut negative = false;
        if let Some(sign @ (b'-' | b'+')) = self.peek()? {
            negative = sign == b'-';
            self.reader.consume(1);
        }
        // The magnitude, at most 2^63 (for i64::MIN).
        let limit: u64 = if negative { 1 << 63 } else { i64::MAX as u64 };
        let mut magnitude: u64 = 0;
        let mut digits = 0usize;
        while let Some(b) = self.peek()? {
            if !b.is_ascii_digit() {
                break;
            }
            self.reader.consume(1);
            digits += 1;
            magnitude = magnitude
                .checked_mul(10)
                .and_then(|m| m.checked_add(u64::from(b - b'0')))
                .filter(|&m| m <= limit)
                .ok_or(Fault::NumberOutOfRange)?;
        }
        if digits == 0 {
            return Err(Fault::NotANumber);
        }
        let value = if negative {
            -(magnitude as i128)
        } else {
            magnitude as i128
        };
        i64::try_from(value)
            .map(Some)
            .map_err(|_| Fault::NumberOutOfRange)
    }

    /// §6: reads up to `values.len()` integers into `values`, left to
    /// right, stopping at the first end of input. Returns how many were
    /// read (the rest of `values` is untouched). Errors as
    /// [`Input::read_int`].
    pub fn read_into(&mut self, values: &mut [i64]) -> Result<usize, Fault> {
        for (read, slot) in values.iter_mut().enumerate() {
            match self.read_int()? {
                Some(v) => *slot = v,
                None => return Ok(read),
            }
        }
        Ok(values.len())
    }
}
// @end read

// @section text
/// §4.6: writes `text` exactly (the caller includes the `\n`).
/// Errors: [`Fault::WriteFailed`] (§8).
pub fn write_text<W: std::io::Write>(out: &mut W, text: &str) -> Result<(), Fault> {
    out.write_all(text.as_bytes())
        .map_err(|_| Fault::WriteFailed)
}
// @end text

// @section count
/// §4.7: writes `n` in decimal and a `\n`.
/// Errors: [`Fault::WriteFailed`] (§8).
pub fn write_count<W: std::io::Write>(out: &mut W, n: u64) -> Result<(), Fault> {
    writeln!(out, "{n}").map_err(|_| Fault::WriteFailed)
}
// @end count
