//! [`SmallStr`]: an immutable string that keeps up to 22 bytes inline.
//!
//! The model holds a tag name and two value strings per tag pair (about 35
//! tags a game); most are a few bytes long (`Board`, `"3"`, `"NS"`), and a
//! `String` each cost an allocation when lowering, another when freeing,
//! and a heap block the language server keeps. A `SmallStr` is as large as
//! a `String` (24 bytes) and only allocates beyond 22 bytes.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

const INLINE: usize = 22;

#[derive(Clone)]
pub struct SmallStr(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, buf: [u8; INLINE] },
    Heap(Box<str>),
}

impl SmallStr {
    pub fn new(s: &str) -> SmallStr {
        if s.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..s.len()].copy_from_slice(s.as_bytes());
            SmallStr(Repr::Inline {
                len: s.len() as u8,
                buf,
            })
        } else {
            SmallStr(Repr::Heap(s.into()))
        }
    }

    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // SAFETY: the first `len` bytes were copied from a `&str`
            // (`new`), so they are valid UTF-8.
            Repr::Inline { len, buf } => unsafe {
                std::str::from_utf8_unchecked(&buf[..*len as usize])
            },
            Repr::Heap(s) => s,
        }
    }
}

impl Default for SmallStr {
    fn default() -> SmallStr {
        SmallStr::new("")
    }
}

impl Deref for SmallStr {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for SmallStr {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for SmallStr {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for SmallStr {
    fn from(s: &str) -> SmallStr {
        SmallStr::new(s)
    }
}

impl From<String> for SmallStr {
    fn from(s: String) -> SmallStr {
        if s.len() <= INLINE {
            SmallStr::new(&s)
        } else {
            SmallStr(Repr::Heap(s.into_boxed_str()))
        }
    }
}

impl From<SmallStr> for String {
    fn from(s: SmallStr) -> String {
        match s.0 {
            Repr::Heap(b) => b.into_string(),
            Repr::Inline { .. } => s.as_str().to_owned(),
        }
    }
}

impl PartialEq for SmallStr {
    fn eq(&self, other: &SmallStr) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for SmallStr {}

impl PartialOrd for SmallStr {
    fn partial_cmp(&self, other: &SmallStr) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SmallStr {
    fn cmp(&self, other: &SmallStr) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for SmallStr {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_str().hash(h)
    }
}

impl PartialEq<str> for SmallStr {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SmallStr {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for SmallStr {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<SmallStr> for str {
    fn eq(&self, other: &SmallStr) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<SmallStr> for &str {
    fn eq(&self, other: &SmallStr) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<SmallStr> for String {
    fn eq(&self, other: &SmallStr) -> bool {
        self.as_str() == other.as_str()
    }
}

impl fmt::Debug for SmallStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for SmallStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::SmallStr;

    #[test]
    fn inline_and_heap() {
        assert_eq!(std::mem::size_of::<SmallStr>(), 24);
        for s in [
            "",
            "Board",
            "1234567890123456789012",
            "12345678901234567890123",
            "é–ü tag with a longer value",
        ] {
            let a = SmallStr::new(s);
            assert_eq!(a.as_str(), s);
            assert_eq!(a, s);
            assert_eq!(SmallStr::from(s.to_owned()), a);
            assert_eq!(String::from(a.clone()), s);
            assert_eq!(format!("{a:?}"), format!("{s:?}"));
        }
    }
}
