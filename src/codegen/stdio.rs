/// Standard input and output as the program found them when it started.
/// Before `main`, Rust's runtime opens `/dev/null` in place of a closed
/// standard input or output, so a read would see an empty input and a
/// write would vanish without a trace; the C program sees the closed
/// descriptor and fails. This module looks first (from the executable's
/// initialisers, on Unix) and gives `main` streams that fail as C's do: a
/// closed input at its first read, a closed output at its first write.
mod icp_stdio {
    use std::io::{self, BufRead, Read, Write};
    use std::sync::atomic::{AtomicU8, Ordering};

    /// Bit 0: standard input was closed at start; bit 1: standard output.
    static CLOSED: AtomicU8 = AtomicU8::new(0);

    #[cfg(unix)]
    mod look {
        unsafe extern "C" {
            fn fcntl(fd: i32, cmd: i32, ...) -> i32;
        }

        /// Runs before `main`, and so before Rust's runtime reopens a
        /// closed descriptor.
        extern "C" fn look() {
            let mut closed = 0;
            for fd in 0..2 {
                // F_GETFD (1 on every Unix) only reads the descriptor's
                // flags; it fails when the descriptor is not open.
                if unsafe { fcntl(fd, 1) } == -1 {
                    closed |= 1 << fd;
                }
            }
            super::CLOSED.store(closed, super::Ordering::Relaxed);
        }

        #[used]
        #[cfg_attr(
            target_vendor = "apple",
            unsafe(link_section = "__DATA,__mod_init_func")
        )]
        #[cfg_attr(not(target_vendor = "apple"), unsafe(link_section = ".init_array"))]
        static LOOK: extern "C" fn() = look;
    }

    /// A standard stream: the open one, or a closed one whose reads and
    /// writes fail with the error of a closed descriptor (`EBADF`).
    pub enum Stream<T> {
        Open(T),
        Closed,
    }

    /// Standard input, opened by `open` unless it was closed at start.
    pub fn input<T>(open: impl FnOnce() -> T) -> Stream<T> {
        stream(0, open)
    }

    /// Standard output, opened by `open` unless it was closed at start.
    pub fn output<T>(open: impl FnOnce() -> T) -> Stream<T> {
        stream(1, open)
    }

    fn stream<T>(fd: u8, open: impl FnOnce() -> T) -> Stream<T> {
        if CLOSED.load(Ordering::Relaxed) & 1 << fd != 0 {
            Stream::Closed
        } else {
            Stream::Open(open())
        }
    }

    fn closed() -> io::Error {
        io::Error::from_raw_os_error(9)
    }

    impl<T: Read> Read for Stream<T> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self {
                Stream::Open(inner) => inner.read(buf),
                Stream::Closed => Err(closed()),
            }
        }
    }

    impl<T: BufRead> BufRead for Stream<T> {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            match self {
                Stream::Open(inner) => inner.fill_buf(),
                Stream::Closed => Err(closed()),
            }
        }

        fn consume(&mut self, amount: usize) {
            if let Stream::Open(inner) = self {
                inner.consume(amount);
            }
        }
    }

    impl<T: Write> Write for Stream<T> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            match self {
                Stream::Open(inner) => inner.write(buf),
                Stream::Closed => Err(closed()),
            }
        }

        fn flush(&mut self) -> io::Result<()> {
            match self {
                Stream::Open(inner) => inner.flush(),
                // Nothing was written, so nothing is lost.
                Stream::Closed => Ok(()),
            }
        }
    }
}
