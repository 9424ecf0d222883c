// Rust layouts for tests/lang/run_lang.py: rustc reorders the fields of a
// struct (not of a #[repr(C)] one); main prints what the compiler did, as
// "PATH SIZE N" and "PATH FIELD OFFSET SIZE" lines.
pub mod geo {
    pub struct Point {
        pub tag: u8,
        pub x: u64,
        pub y: u16,
        pub z: u32,
    }
    #[repr(C)]
    pub struct CPoint {
        pub tag: u8,
        pub x: u64,
        pub y: u16,
    }
    pub struct Wrapper<T> {
        pub flag: bool,
        pub inner: T,
    }
    pub mod deep {
        pub struct Leaf {
            pub a: u16,
            pub b: [u8; 3],
            pub c: f64,
        }
    }
    pub enum Shape {
        Dot(u8),
        Line(u64, u64),
    }
    // Enums as fields: the struct is laid out, each enum a member of its size.
    pub struct Holder {
        pub id: u32,
        pub next: Option<Box<u64>>,
        pub shape: Shape,
        pub small: Option<u8>,
        pub done: bool,
    }
}

use geo::deep::Leaf;
use geo::{CPoint, Holder, Point, Shape, Wrapper};
use std::mem::{offset_of, size_of, size_of_val};

macro_rules! field {
    ($path:expr, $t:ty, $f:ident, $v:expr) => {
        println!("{} {} {} {}", $path, stringify!($f), offset_of!($t, $f), size_of_val(&$v.$f));
    };
}

fn main() {
    let p = Point { tag: 1, x: 2, y: 3, z: 4 };
    let c = CPoint { tag: 1, x: 2, y: 3 };
    let w = Wrapper { flag: true, inner: 7u32 };
    let l = Leaf { a: 1, b: [0; 3], c: 2.0 };
    let s = Shape::Line(1, 2);
    println!("shapes::geo::Point SIZE {}", size_of::<Point>());
    field!("shapes::geo::Point", Point, tag, p);
    field!("shapes::geo::Point", Point, x, p);
    field!("shapes::geo::Point", Point, y, p);
    field!("shapes::geo::Point", Point, z, p);
    println!("shapes::geo::CPoint SIZE {}", size_of::<CPoint>());
    field!("shapes::geo::CPoint", CPoint, tag, c);
    field!("shapes::geo::CPoint", CPoint, x, c);
    field!("shapes::geo::CPoint", CPoint, y, c);
    println!("shapes::geo::Wrapper<u32> SIZE {}", size_of::<Wrapper<u32>>());
    field!("shapes::geo::Wrapper<u32>", Wrapper<u32>, flag, w);
    field!("shapes::geo::Wrapper<u32>", Wrapper<u32>, inner, w);
    println!("shapes::geo::deep::Leaf SIZE {}", size_of::<Leaf>());
    field!("shapes::geo::deep::Leaf", Leaf, a, l);
    field!("shapes::geo::deep::Leaf", Leaf, b, l);
    field!("shapes::geo::deep::Leaf", Leaf, c, l);
    let h = Holder { id: 1, next: None, shape: Shape::Dot(2), small: Some(3), done: false };
    println!("shapes::geo::Holder SIZE {}", size_of::<Holder>());
    field!("shapes::geo::Holder", Holder, id, h);
    field!("shapes::geo::Holder", Holder, next, h);
    field!("shapes::geo::Holder", Holder, shape, h);
    field!("shapes::geo::Holder", Holder, small, h);
    field!("shapes::geo::Holder", Holder, done, h);
    if let Shape::Dot(_) = s {
        println!("unreachable");
    }
}
