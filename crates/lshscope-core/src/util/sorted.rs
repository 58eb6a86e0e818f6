//! Sorted sequences.

/// The union of `a` and `b`, each sorted by `key` without repeats, sorted by `key`: an item
/// whose key is in both is taken once, from `b` (the newer of the two where they differ in
/// anything but the key).
pub fn union_by_key<T: Copy, K: Ord>(a: &[T], b: &[T], key: impl Fn(&T) -> K) -> Vec<T> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match key(&a[i]).cmp(&key(&b[j])) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(b[j]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_takes_each_key_once_from_the_second_where_both_have_it() {
        let a = [(1, 'a'), (3, 'a'), (5, 'a')];
        let b = [(2, 'b'), (3, 'b'), (6, 'b')];
        assert_eq!(
            union_by_key(&a, &b, |x| x.0),
            [(1, 'a'), (2, 'b'), (3, 'b'), (5, 'a'), (6, 'b')]
        );
        assert_eq!(union_by_key(&a, &[], |x| x.0), a);
        assert_eq!(union_by_key(&[], &b, |x| x.0), b);
    }
}
