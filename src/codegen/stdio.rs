// Rust's runtime puts /dev/null in place of a closed standard input or
// output before `main`. icp_stdio looks first (on Unix), so that a stream
// closed at start fails at its first use with EBADF, as it does in C.
mod icp_stdio {
    use std::io::{BufRead, Error, Read, Result, Write};
    use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

    /// Bit 0: standard input was closed at start; bit 1: standard output.
    static CLOSED: AtomicU8 = AtomicU8::new(0);

    /// Runs among the executable's initialisers, before Rust's runtime.
    #[cfg(unix)]
    extern "C" fn look() {
        unsafe extern "C" {
            fn fcntl(fd: i32, cmd: i32, ...) -> i32;
        }
        // F_GETFD (1 on every Unix) fails only on a descriptor not open.
        let closed = |fd| u8::from(unsafe { fcntl(fd, 1) } == -1);
        CLOSED.store(closed(0) | closed(1) << 1, Relaxed);
    }

    #[cfg(unix)]
    #[used]
    #[cfg_attr(
        target_vendor = "apple",
        unsafe(link_section = "__DATA,__mod_init_func")
    )]
    #[cfg_attr(not(target_vendor = "apple"), unsafe(link_section = ".init_array"))]
    static LOOK: extern "C" fn() = look;

    /// Standard input (fd 0) or output (fd 1) as `open` gives it, or
    /// `Closed` where it was closed at start.
    pub enum Stream<T> {
        Open(T),
        Closed,
    }

    pub fn open<T>(fd: u8, open: impl FnOnce() -> T) -> Stream<T> {
        match CLOSED.load(Relaxed) >> fd & 1 {
            0 => Stream::Open(open()),
            _ => Stream::Closed,
        }
    }

    impl<T: Read> Read for Stream<T> {
        fn read(&mut self, buf: &mut [u8]) -> Result<usize> {
            match self {
                Stream::Open(s) => s.read(buf),
                Stream::Closed => Err(Error::from_raw_os_error(9)),
            }
        }
    }

    impl<T: BufRead> BufRead for Stream<T> {
        fn fill_buf(&mut self) -> Result<&[u8]> {
            match self {
                Stream::Open(s) => s.fill_buf(),
                Stream::Closed => Err(Error::from_raw_os_error(9)),
            }
        }

        fn consume(&mut self, amount: usize) {
            if let Stream::Open(s) = self {
                s.consume(amount);
            }
        }
    }

    impl<T: Write> Write for Stream<T> {
        fn write(&mut self, buf: &[u8]) -> Result<usize> {
            match self {
                Stream::Open(s) => s.write(buf),
                Stream::Closed => Err(Error::from_raw_os_error(9)),
            }
        }

        fn flush(&mut self) -> Result<()> {
            match self {
                Stream::Open(s) => s.flush(),
                Stream::Closed => Ok(()),
            }
        }
    }
}
