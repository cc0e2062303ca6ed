//! The arithmetic of duplicate scoring over one board's results (§3.4.12,
//! §4.2.2–§4.2.4): IMPs of a score difference (the scales of 1962 and
//! 1948), matchpoints by MP1 and MP2 (factored up when some tables have no
//! score to compare), percentages, the Butler datum (mean or median, with
//! or without the two extreme scores), cross-IMPs, and what a Scoring tag
//! asks for ([`Method`]). Scores are NS trick scores, the `Score_NS` of a
//! ScoreTable row (§5.9); a board's trick score itself is
//! [`super::duplicate_score`]. No crate computes these (`contract-bridge`
//! scores a contract only).

/// The upper ends of the score differences of each IMP, 0 to 23, of the
/// WBF scale in use since 1962 (§3.4.12 `IMP`): a difference of 0–10 is 0
/// IMPs, 20–40 is 1, …, 4000 and more is 24.
const IMP_1962: [i32; 24] = [
    10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290, 1490, 1740,
    1990, 2240, 2490, 2990, 3490, 3990,
];

/// The upper ends of the score differences of each IMP, 0 to 14, of the
/// scale used from 1948 to 1960 (§3.4.12 `IMP_1948`): 0–10 is 0 IMPs,
/// 20–60 is 1, 70–130 is 2, …, 4000 and more is 15.
const IMP_1948: [i32; 15] = [
    10, 60, 130, 210, 340, 490, 740, 990, 1240, 1490, 1990, 2490, 2990, 3490, 3990,
];

/// An IMP scale (§3.4.12): `IMP` (since 1962) or `IMP_1948`. The scale of
/// `IMP_1961` is not known here, so no IMPs are computed by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImpScale {
    Since1962,
    Of1948,
}

impl ImpScale {
    /// The IMPs of a score difference; negative for a negative difference.
    pub fn imps(self, diff: i32) -> i32 {
        let tops: &[i32] = match self {
            ImpScale::Since1962 => &IMP_1962,
            ImpScale::Of1948 => &IMP_1948,
        };
        let a = diff.unsigned_abs();
        let n = tops.partition_point(|&top| (top as u32) < a) as i32;
        if diff < 0 {
            -n
        } else {
            n
        }
    }

    /// Its Scoring field.
    pub fn name(self) -> &'static str {
        match self {
            ImpScale::Since1962 => "IMP",
            ImpScale::Of1948 => "IMP_1948",
        }
    }
}

/// The IMPs of a score difference (NS score minus the score it is
/// compared with), by the 1962 scale; negative for a negative difference.
pub fn imps(diff: i32) -> i32 {
    ImpScale::Since1962.imps(diff)
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
    /// Its Scoring field.
    pub fn name(self) -> &'static str {
        match self {
            MpScale::Mp1 => "MP1",
            MpScale::Mp2 => "MP2",
        }
    }
}

impl MpScale {
    /// The points for a lower score (an equal one gets half).
    pub fn win(self) -> f64 {
        match self {
            MpScale::Mp1 => 2.0,
            MpScale::Mp2 => 1.0,
        }
    }
}

/// The matchpoints of `scores[i]` against the other scores of the board
/// ([`Board::matchpoints`] of a board of one table per score).
pub fn matchpoints(scores: &[i32], i: usize, scale: MpScale) -> f64 {
    Board::of(scores).matchpoints(i, scale).unwrap_or(0.0)
}

/// The top of a board of `n` scores: the matchpoints of a score above all
/// the others.
pub fn top(n: usize, scale: MpScale) -> f64 {
    scale.win() * n.saturating_sub(1) as f64
}

/// The percentage of the top that `scores[i]` earned (50 on a board
/// played once; [`Board::percentage`]).
pub fn percentage(scores: &[i32], i: usize) -> f64 {
    Board::of(scores).percentage(i).unwrap_or(50.0)
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
/// against every other score of the board ([`Board::imps`]).
pub fn cross_imps(scores: &[i32], i: usize) -> i32 {
    Board::of(scores)
        .imps(i, ImpMethod::Cross(CrossPer::Nothing), ImpScale::Since1962)
        .unwrap_or(0.0) as i32
}

/// How a board's scores are IMPed (§3.4.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImpMethod {
    /// Against the board's datum (`Butler`; `Butler-2` leaves out the
    /// highest and the lowest score), its `Mean` or `Median`.
    Butler {
        without_extremes: bool,
        datum: Datum,
    },
    /// Against every other score (`Cross`), that sum divided by the number
    /// of scores (`Cross1`) or of comparisons (`Cross2`).
    Cross(CrossPer),
    /// Plain `IMP` on a board played at two tables: each score against the
    /// other (a teams match). Not defined for more tables.
    Teams,
}

/// What a cross-IMP sum is divided by (§3.4.12 `Cross`, `Cross1`, `Cross2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrossPer {
    Nothing,
    Score,
    Comparison,
}

/// What a Scoring tag asks of a board's arithmetic (§3.4.12).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Method {
    /// Matchpoints are scored (`MP`, `MatchPoints`, `BAM`, `MP1`, `MP2`).
    pub matchpoints: bool,
    /// The matchpoint scale named (`MP1`, `MP2`; `BAM` counts 1 and ½ per
    /// comparison, as MP2); `None` when none is.
    pub mp_scale: Option<MpScale>,
    /// How the IMPs are computed; `None` when they are not scored, or by a
    /// datum this module cannot know (`Experts`).
    pub imps: Option<ImpMethod>,
    /// The IMP scale; `None` for `IMP_1961`, whose table is not known here.
    pub imp_scale: Option<ImpScale>,
    /// `OldMP`: undertricks scored as before 1987 ([`board_score`]).
    pub old_mp: bool,
}

impl Method {
    /// The method of a Scoring tag, from whether it has each field (in its
    /// §3.4.12 spelling).
    pub fn of(has: impl Fn(&str) -> bool) -> Method {
        let any = |names: &[&str]| names.iter().any(|n| has(n));
        let butler = any(&["Butler", "Butler-2"]);
        let imps = if has("Experts") {
            None
        } else if butler {
            Some(ImpMethod::Butler {
                without_extremes: has("Butler-2"),
                datum: if has("Median") {
                    Datum::Median
                } else {
                    Datum::Mean
                },
            })
        } else if has("Cross") {
            Some(ImpMethod::Cross(CrossPer::Nothing))
        } else if has("Cross1") {
            Some(ImpMethod::Cross(CrossPer::Score))
        } else if has("Cross2") {
            Some(ImpMethod::Cross(CrossPer::Comparison))
        } else if any(&["IMP", "IMP_1948", "IMP_1961"]) {
            Some(ImpMethod::Teams)
        } else {
            None
        };
        Method {
            matchpoints: any(&["MP", "MatchPoints", "BAM", "MP1", "MP2"]),
            mp_scale: if has("MP1") {
                Some(MpScale::Mp1)
            } else if any(&["MP2", "BAM"]) {
                Some(MpScale::Mp2)
            } else {
                None
            },
            imps,
            imp_scale: if has("IMP_1961") {
                None
            } else if has("IMP_1948") {
                Some(ImpScale::Of1948)
            } else {
                Some(ImpScale::Since1962)
            },
            old_mp: has("OldMP"),
        }
    }
}

/// The NS score of `contract` by `declarer` taking `tricks`
/// ([`super::duplicate_score`]), as the board is scored: with `old_mp`
/// (§3.4.12 `OldMP`) a doubled (redoubled) contract not vulnerable and
/// down four or more gets no extra 100 (200) for the fourth and each later
/// undertrick.
pub fn board_score(
    contract: super::Contract,
    declarer: super::Seat,
    tricks: u8,
    vulnerability: super::Vulnerability,
    old_mp: bool,
) -> i32 {
    let ns = super::duplicate_score(contract, declarer, tricks, vulnerability);
    if !old_mp {
        return ns;
    }
    let per = match contract.penalty {
        super::Penalty::Undoubled => return ns,
        super::Penalty::Doubled => 100,
        super::Penalty::Redoubled => 200,
    };
    if super::is_vulnerable(vulnerability, declarer) {
        return ns;
    }
    let down = i32::from(contract.bid.level.get()) + 6 - i32::from(tricks.min(13));
    if down < 4 {
        return ns;
    }
    // Fewer points to the defenders: the declarer's side loses less.
    let less = per * (down - 3);
    if super::is_north_south(declarer) {
        ns + less
    } else {
        ns - less
    }
}

/// One board's results (§5.9): each row's NS score (`None`: no score to
/// compare, an adjusted or unknown one) and how many tables it stands for
/// (`Multiplicity`, 1 when not given).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    pub rows: Vec<(Option<i32>, u32)>,
}

impl Board {
    /// A board of one table per score.
    pub fn of(scores: &[i32]) -> Board {
        Board {
            rows: scores.iter().map(|&s| (Some(s), 1)).collect(),
        }
    }

    /// The tables of the board.
    pub fn tables(&self) -> u32 {
        self.rows.iter().map(|r| r.1).sum()
    }

    /// The tables with a score.
    pub fn scored(&self) -> u32 {
        self.rows
            .iter()
            .filter(|r| r.0.is_some())
            .map(|r| r.1)
            .sum()
    }

    /// Every score, a row's once per table it stands for.
    fn each_score(&self) -> impl Iterator<Item = i32> + '_ {
        self.rows
            .iter()
            .filter_map(|&(s, w)| Some(std::iter::repeat_n(s?, w as usize)))
            .flatten()
    }

    /// The tables of row `i`'s score it beat and tied, the other tables of
    /// its own row among the ties.
    pub fn beaten_tied(&self, i: usize) -> Option<(u32, u32)> {
        let me = self.rows[i].0?;
        let (mut lower, mut equal) = (0, 0);
        for (j, &(s, w)) in self.rows.iter().enumerate() {
            let Some(s) = s else { continue };
            let w = if j == i { w.saturating_sub(1) } else { w };
            lower += if s < me { w } else { 0 };
            equal += if s == me { w } else { 0 };
        }
        Some((lower, equal))
    }

    /// The score of the other table of a board played at two: another
    /// row's, or row `i`'s own when it stands for both.
    pub fn other_table(&self, i: usize) -> Option<i32> {
        let (j, _) = self
            .rows
            .iter()
            .enumerate()
            .find(|&(j, r)| j != i || r.1 == 2)?;
        self.rows[j].0
    }

    /// The top: the matchpoints of a score above every other table's.
    pub fn top(&self, scale: MpScale) -> f64 {
        scale.win() * f64::from(self.tables().saturating_sub(1))
    }

    /// Row `i`'s matchpoints by `scale` against every other table's score.
    /// When some tables have no score, it is factored up to the full top as
    /// the Neuberg formula does: (mp + ½ win) × tables / scored − ½ win.
    pub fn matchpoints(&self, i: usize, scale: MpScale) -> Option<f64> {
        let (lower, equal) = self.beaten_tied(i)?;
        let mp = scale.win() * (f64::from(lower) + f64::from(equal) / 2.0);
        let (n, scored) = (self.tables(), self.scored());
        if n == scored {
            return Some(mp);
        }
        let half = scale.win() / 2.0;
        Some((mp + half) * f64::from(n) / f64::from(scored) - half)
    }

    /// Row `i`'s percentage of the top (50 on a board played once).
    pub fn percentage(&self, i: usize) -> Option<f64> {
        let mp = self.matchpoints(i, MpScale::Mp2)?;
        let top = self.top(MpScale::Mp2);
        Some(if top == 0.0 { 50.0 } else { 100.0 * mp / top })
    }

    /// The board's Butler datum ([`butler_datum`] of every table's score).
    pub fn datum(&self, without_extremes: bool, how: Datum) -> Option<i32> {
        butler_datum(
            &self.each_score().collect::<Vec<_>>(),
            without_extremes,
            how,
        )
    }

    /// Row `i`'s IMPs by `method` on `scale`: against the datum, the sum
    /// (or average) against every other table, or against the other table
    /// of a board played twice.
    pub fn imps(&self, i: usize, method: ImpMethod, scale: ImpScale) -> Option<f64> {
        let me = self.rows[i].0?;
        let against = |datum: i32| f64::from(scale.imps(me - datum));
        match method {
            ImpMethod::Butler {
                without_extremes,
                datum,
            } => Some(against(self.datum(without_extremes, datum)?)),
            ImpMethod::Teams => {
                if self.tables() != 2 || self.scored() != 2 {
                    return None;
                }
                Some(against(self.other_table(i)?))
            }
            ImpMethod::Cross(per) => {
                // Against every other table: one's own row's other tables
                // have the same score (0 IMPs).
                let sum: f64 = self.each_score().map(against).sum();
                let scored = f64::from(self.scored());
                Some(match per {
                    CrossPer::Nothing => sum,
                    CrossPer::Score => sum / scored,
                    CrossPer::Comparison if scored > 1.0 => sum / (scored - 1.0),
                    CrossPer::Comparison => 0.0,
                })
            }
        }
    }
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

    #[test]
    fn the_1948_scale_tops_at_15() {
        let s = ImpScale::Of1948;
        for (diff, n) in [
            (10, 0),
            (20, 1),
            (60, 1),
            (70, 2),
            (340, 4),
            (350, 5),
            (3990, 14),
        ] {
            assert_eq!(s.imps(diff), n, "{diff}");
        }
        assert_eq!(s.imps(-5000), -15);
    }

    fn board(rows: &[(Option<i32>, u32)]) -> Board {
        Board {
            rows: rows.to_vec(),
        }
    }

    #[test]
    fn a_row_stands_for_its_multiplicity() {
        // 420 at two tables, 170 at one: as [420, 420, 170].
        let b = board(&[(Some(420), 2), (Some(170), 1)]);
        assert_eq!(b.tables(), 3);
        assert_eq!(b.matchpoints(0, MpScale::Mp1), Some(3.0));
        assert_eq!(b.matchpoints(1, MpScale::Mp1), Some(0.0));
        assert_eq!(b.top(MpScale::Mp1), 4.0);
        assert_eq!(b.percentage(0), Some(75.0));
        assert_eq!(b.datum(false, Datum::Mean), Some(340));
    }

    /// Four tables, one without a score: the three scored are compared
    /// with each other and factored up to a top of 3 (MP2):
    /// (mp + ½) × 4 / 3 − ½.
    #[test]
    fn matchpoints_are_factored_up_over_missing_scores() {
        let b = board(&[(Some(420), 1), (Some(170), 1), (None, 1), (Some(-50), 1)]);
        assert_eq!(b.matchpoints(0, MpScale::Mp2), Some(2.5 * 4.0 / 3.0 - 0.5));
        assert_eq!(b.matchpoints(3, MpScale::Mp2), Some(0.5 * 4.0 / 3.0 - 0.5));
        assert_eq!(b.matchpoints(2, MpScale::Mp2), None);
        let pct = b.percentage(1).unwrap();
        assert!((pct - 50.0).abs() < 1e-9, "{pct}");
    }

    #[test]
    fn cross_imps_are_summed_or_averaged() {
        let b = board(&[(Some(420), 1), (Some(170), 1), (Some(-50), 1)]);
        let s = ImpScale::Since1962;
        assert_eq!(
            b.imps(0, ImpMethod::Cross(CrossPer::Nothing), s),
            Some(16.0)
        );
        assert_eq!(
            b.imps(0, ImpMethod::Cross(CrossPer::Score), s),
            Some(16.0 / 3.0)
        );
        assert_eq!(
            b.imps(0, ImpMethod::Cross(CrossPer::Comparison), s),
            Some(8.0)
        );
        assert_eq!(b.imps(0, ImpMethod::Teams, s), None);
        let two = board(&[(Some(620), 1), (Some(-100), 1)]);
        assert_eq!(two.imps(0, ImpMethod::Teams, s), Some(12.0));
        assert_eq!(two.imps(1, ImpMethod::Teams, s), Some(-12.0));
        let same = board(&[(Some(620), 2)]);
        assert_eq!(same.imps(0, ImpMethod::Teams, s), Some(0.0));
    }

    #[test]
    fn the_scoring_fields_name_the_method() {
        let m = |v: &str| Method::of(|f| v.split(';').any(|x| x == f));
        let butler = m("IMP;Butler-2;Median");
        assert_eq!(
            butler.imps,
            Some(ImpMethod::Butler {
                without_extremes: true,
                datum: Datum::Median
            })
        );
        assert!(!butler.matchpoints);
        assert_eq!(m("MP").mp_scale, None);
        assert!(m("MP").matchpoints && m("MP").imps.is_none());
        assert_eq!(m("BAM").mp_scale, Some(MpScale::Mp2));
        assert_eq!(m("MP;MP1").mp_scale, Some(MpScale::Mp1));
        assert_eq!(m("IMP").imps, Some(ImpMethod::Teams));
        assert_eq!(m("IMP_1948").imp_scale, Some(ImpScale::Of1948));
        assert_eq!(m("IMP_1961").imp_scale, None);
        assert_eq!(m("IMP;Experts").imps, None);
        assert_eq!(
            m("IMP;Cross2").imps,
            Some(ImpMethod::Cross(CrossPer::Comparison))
        );
        assert!(m("MP;OldMP").old_mp);
        assert_eq!(m("Rubber"), Method::of(|_| false));
    }

    /// 4SX by South, not vulnerable, taking 4 tricks: down 6 is 1400 today
    /// (100, 200, 200, 300, 300, 300) and 1100 by OldMP (300 less).
    #[test]
    fn old_mp_drops_the_extra_100_from_the_fourth_undertrick() {
        use super::super::{duplicate_score, Vulnerability};
        let c: super::super::Contract = "4SX".parse().unwrap();
        let s = contract_bridge::Seat::South;
        let today = duplicate_score(c, s, 4, Vulnerability::NONE);
        assert_eq!(today, -1400);
        assert_eq!(board_score(c, s, 4, Vulnerability::NONE, false), today);
        assert_eq!(board_score(c, s, 4, Vulnerability::NONE, true), -1100);
        // Down 3, or vulnerable: unchanged.
        let d3 = duplicate_score(c, s, 7, Vulnerability::NONE);
        assert_eq!(board_score(c, s, 7, Vulnerability::NONE, true), d3);
        let vul = duplicate_score(c, s, 4, Vulnerability::ALL);
        assert_eq!(board_score(c, s, 4, Vulnerability::ALL, true), vul);
        // Redoubled, East declaring: NS get 600 less.
        let cx: super::super::Contract = "4SXX".parse().unwrap();
        let e = contract_bridge::Seat::East;
        let today = duplicate_score(cx, e, 4, Vulnerability::NONE);
        assert_eq!(
            board_score(cx, e, 4, Vulnerability::NONE, true),
            today - 600
        );
    }
}
