//! The arithmetic of duplicate scoring over one board's results (§3.4.12,
//! §4.2.2–§4.2.4): IMPs of a score difference, matchpoints by MP1 and MP2,
//! percentages, the Butler datum (mean or median, with or without the two
//! extreme scores) and cross-IMPs. Scores are NS trick scores, the
//! `Score_NS` of a ScoreTable row (§5.9); a board's trick score itself is
//! [`super::duplicate_score`]. No crate computes these (`contract-bridge`
//! scores a contract only).

/// The upper ends of the score differences of each IMP, 0 to 23, of the
/// WBF scale in use since 1962 (§3.4.12 `IMP`): a difference of 0–10 is 0
/// IMPs, 20–40 is 1, …, 4000 and more is 24.
const IMP_1962: [i32; 24] = [
    10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290, 1490, 1740,
    1990, 2240, 2490, 2990, 3490, 3990,
];

/// The IMPs of a score difference (NS score minus the score it is
/// compared with), by the 1962 scale; negative for a negative difference.
pub fn imps(diff: i32) -> i32 {
    let a = diff.unsigned_abs();
    let n = IMP_1962.partition_point(|&top| (top as u32) < a) as i32;
    if diff < 0 {
        -n
    } else {
        n
    }
}

/// How the matchpoints of a score are counted (§3.4.12): MP1 (and
/// §4.2.3's `ScoreMP`) gives 2 for each lower score and 1 for each equal
/// one; MP2 gives 1 and ½.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MpScale {
    Mp1,
    Mp2,
}

impl MpScale {
    /// The points for a lower score (an equal one gets half).
    fn win(self) -> f64 {
        match self {
            MpScale::Mp1 => 2.0,
            MpScale::Mp2 => 1.0,
        }
    }
}

/// The matchpoints of `scores[i]` against the other scores of the board.
pub fn matchpoints(scores: &[i32], i: usize, scale: MpScale) -> f64 {
    let me = scores[i];
    let (mut lower, mut equal) = (0u32, 0u32);
    for (j, &s) in scores.iter().enumerate() {
        if j != i {
            lower += u32::from(s < me);
            equal += u32::from(s == me);
        }
    }
    scale.win() * (f64::from(lower) + f64::from(equal) / 2.0)
}

/// The top of a board of `n` scores: the matchpoints of a score above all
/// the others.
pub fn top(n: usize, scale: MpScale) -> f64 {
    scale.win() * n.saturating_sub(1) as f64
}

/// The percentage of the top that `scores[i]` earned (50 on a board
/// played once).
pub fn percentage(scores: &[i32], i: usize) -> f64 {
    let t = top(scores.len(), MpScale::Mp2);
    if t == 0.0 {
        50.0
    } else {
        100.0 * matchpoints(scores, i, MpScale::Mp2) / t
    }
}

/// What a Butler datum is taken from (§3.4.12 `Mean`, `Median`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Datum {
    Mean,
    Median,
}

/// The Butler datum of a board: the mean (or median) of its scores, after
/// leaving out the highest and the lowest when `without_extremes`
/// (`Butler-2`, when more than two scores are left), rounded to the
/// nearest 10 (a 5 away from zero). `None` without scores.
pub fn butler_datum(scores: &[i32], without_extremes: bool, how: Datum) -> Option<i32> {
    let mut s = scores.to_vec();
    s.sort_unstable();
    if without_extremes && s.len() > 2 {
        s.pop();
        s.remove(0);
    }
    if s.is_empty() {
        return None;
    }
    let (sum, n) = match how {
        Datum::Mean => (s.iter().map(|&x| i64::from(x)).sum::<i64>(), s.len() as i64),
        Datum::Median if s.len() % 2 == 1 => (i64::from(s[s.len() / 2]), 1),
        Datum::Median => (i64::from(s[s.len() / 2 - 1]) + i64::from(s[s.len() / 2]), 2),
    };
    // Rounded to the nearest 10, half away from zero, in integers.
    let tens = (2 * sum.abs() + 10 * n) / (20 * n);
    Some((sum.signum() * tens * 10) as i32)
}

/// The cross-IMPs of `scores[i]` (§3.4.12 `Cross`): the sum of its IMPs
/// against every other score of the board.
pub fn cross_imps(scores: &[i32], i: usize) -> i32 {
    scores
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != i)
        .map(|(_, &s)| imps(scores[i] - s))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imps_follow_the_1962_scale_at_each_step() {
        for (diff, n) in [
            (0, 0),
            (10, 0),
            (20, 1),
            (40, 1),
            (50, 2),
            (210, 5),
            (220, 6),
            (420, 9),
            (430, 10),
            (1490, 16),
            (1500, 17),
            (3990, 23),
            (4000, 24),
            (7600, 24),
        ] {
            assert_eq!(imps(diff), n, "{diff}");
            assert_eq!(imps(-diff), -n, "-{diff}");
        }
    }

    #[test]
    fn matchpoints_count_lower_and_equal_scores() {
        let s = [420, 170, 170, -50];
        assert_eq!(matchpoints(&s, 0, MpScale::Mp1), 6.0);
        assert_eq!(matchpoints(&s, 1, MpScale::Mp1), 3.0);
        assert_eq!(matchpoints(&s, 1, MpScale::Mp2), 1.5);
        assert_eq!(matchpoints(&s, 3, MpScale::Mp2), 0.0);
        assert_eq!(top(4, MpScale::Mp1), 6.0);
        assert_eq!(percentage(&s, 1), 50.0);
        assert_eq!(percentage(&[100], 0), 50.0);
    }

    /// Board 1 of `ruter71.pbn` (shared corpus, `IMP;Butler-2;Mean`):
    /// without 120 and one -150, the mean is -85, datum -90; 120 then
    /// gains 5 IMPs, -110 loses 1.
    #[test]
    fn butler_2_leaves_out_the_extremes_and_rounds_to_ten() {
        let s = [120, 50, -80, -80, -110, -140, -150, -150];
        assert_eq!(butler_datum(&s, true, Datum::Mean), Some(-90));
        assert_eq!(imps(120 - -90), 5);
        assert_eq!(imps(-110 - -90), -1);
        // Board 2: 50, -100 and six -140: (-100 - 5 × 140) / 6 = -133.3.
        let s = [50, -100, -140, -140, -140, -140, -140, -140];
        assert_eq!(butler_datum(&s, true, Datum::Mean), Some(-130));
        assert_eq!(butler_datum(&[15, 0], false, Datum::Mean), Some(10));
        assert_eq!(butler_datum(&[-15, 0], false, Datum::Mean), Some(-10));
        assert_eq!(
            butler_datum(&[420, 170, -50], false, Datum::Median),
            Some(170)
        );
        assert_eq!(
            butler_datum(&[420, 170, 150, -50], false, Datum::Median),
            Some(160)
        );
        assert_eq!(butler_datum(&[], true, Datum::Mean), None);
    }

    #[test]
    fn cross_imps_sum_the_imps_against_every_other_score() {
        let s = [420, 170, -50];
        // 250 → 6, 470 → 10; -250 → -6, 220 → 6; -470 → -10, -220 → -6.
        assert_eq!(cross_imps(&s, 0), 16);
        assert_eq!(cross_imps(&s, 1), 0);
        assert_eq!(cross_imps(&s, 2), -16);
    }
}
