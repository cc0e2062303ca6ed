//! Diagnostic codes of this group (see the table in codes/mod.rs): PBN11xx
//! double-dummy analysis stated in a file, checked against the solver by
//! `pbn check --dd` ([`crate::dd::verify`]).

use super::codes;

codes! {
    DD_TRICKS_WRONG = "PBN1101", "double-dummy-tricks-wrong", Warning, Consistency, "§4.2.7",
        "a DoubleDummyTricks digit differs from the solver",
        "DoubleDummyTricks (written by BridgeComposer and others) holds 20 hexadecimal \
         digits: the double-dummy tricks of declarer North, South, East and West, each in \
         NT, spades, hearts, diamonds and clubs. `pbn check --dd` solves the Deal and \
         names each digit that differs from the solver. `pbn dd --overwrite` rewrites \
         the value.",
        bad: "[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n[DoubleDummyTricks \"73b3c63b3c492a0492a0\"]\n",
        good: "[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n[DoubleDummyTricks \"63b3c63b3c492a0492a0\"]\n";
    OPTIMUM_RESULT_WRONG = "PBN1102", "optimum-result-wrong", Warning, Consistency, "§5.7",
        "an OptimumResultTable row differs from the solver",
        "Each OptimumResultTable row gives the tricks a declarer takes in a denomination \
         with open cards (§5.7). `pbn check --dd` solves the Deal and names each row \
         whose Result differs from the solver's.",
        bad: "[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT  7\n",
        good: "[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT  6\n";
    PAR_CONTRACT_WRONG = "PBN1103", "par-contract-wrong", Warning, Consistency, "§4.2.7",
        "a ParContract is not a par contract of the deal",
        "ParContract names the par contracts: `NS 4S=`, `EW 3N+1`, `NS 4SX-3` (a side \
         when both partners make it, a seat when only one does; contracts separated by \
         commas). Par follows the vulnerability and the dealer (who bids first decides \
         when both sides have a par) and includes doubled sacrifices. `pbn check --dd` \
         compares each contract with the solver's par.",
        bad: "[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n[ParContract \"NS 4S=\"]\n",
        good: "[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n[ParContract \"EW 6DX-2\"]\n";
    OPTIMUM_SCORE_WRONG = "PBN1104", "optimum-score-wrong", Warning, Consistency, "§4.2.7",
        "the OptimumScore differs from the solver's par score",
        "OptimumScore is the par score with open cards, comparing all (doubled) \
         contracts including all pass (§4.2.7). `pbn check --dd` computes the par from \
         the solved Deal, the Vulnerable and the Dealer tags.",
        bad: "[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n[OptimumScore \"EW 300\"]\n",
        good: "[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n[OptimumScore \"NS 300\"]\n";
    DD_UNSOLVABLE = "PBN1105", "double-dummy-unsolvable", Info, Consistency, "§3.10",
        "double-dummy data for a deal the solver cannot take",
        "The game states double-dummy values, but its Deal cannot be solved: a hand is \
         missing, has `x` spot cards, or the hands differ in size (an end position, \
         §3.10, needs four hands of the same size). The values are not checked.",
        bad: "[Deal \"N:AKQ... - - -\"]\n[OptimumScore \"NS 0\"]\n",
        good: "[Deal \"N:AKQ... - - -\"]\n";
}
