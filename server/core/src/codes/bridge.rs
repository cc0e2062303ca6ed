//! Diagnostic codes of this group (see the table in codes/mod.rs):
//! PBN05xx the auction (§3.5, §3.9), PBN06xx the play (§3.6, §3.9, §3.10),
//! PBN09xx consistency between tags (Declarer, Contract, Result, Board,
//! Dealer, Vulnerable, Score). The rules live in [`crate::bridge`].
//! Irregularity marks in the wrong place (`^I` before a non-bid, two marks
//! on one call or card) are PBN0712 in `notes.rs`.

use super::codes;

codes! {
    // ----- PBN05xx: the auction -------------------------------------------
    CALL_BEFORE_DEALER = "PBN0501", "call-before-dealer", Error, Auction, "§3.5",
        "a call in the column of a player before the dealer",
        "The dealer makes the first call. When the Auction tag names a player other than \
         the dealer (allowed in import format, e.g. a table with West in the first column), \
         each player before the dealer has a hyphen `-` in the first auction line (§3.5). \
         A call in one of those columns would have been made before the dealer's. Add the \
         missing `-`, or let the Auction tag name the dealer.",
        bad: "[Dealer \"N\"]\n[Auction \"W\"]\n1D Pass Pass Pass\n",
        good: "[Dealer \"N\"]\n[Auction \"W\"]\n- 1D Pass Pass\nPass\n";
    MISPLACED_AUCTION_DASH = "PBN0502", "misplaced-auction-dash", Error, Auction, "§3.5.1",
        "`-` in the auction at or after the dealer's turn",
        "In the auction `-` means \"it is not yet this player's turn to make a call\" \
         (§3.5.1): it only stands for the players before the dealer in the first auction \
         line (§3.5). The dealer and every later player make a call, or get `^S` when a \
         call out of rotation skipped them (§3.9).",
        bad: "[Dealer \"N\"]\n[Auction \"W\"]\n- - 1D Pass\nPass Pass\n",
        good: "[Dealer \"N\"]\n[Auction \"W\"]\n- 1D Pass Pass\nPass\n";
    UNMARKED_INSUFFICIENT_BID = "PBN0503", "unmarked-insufficient-bid", Error, Auction, "§3.9",
        "insufficient bid without `^I`",
        "Each bid must be higher than the previous bid: a higher level, or the same level \
         and a higher denomination in the order C, D, H, S, NT. An insufficient bid that \
         the opponents accepted is recorded with `^I` before it (§3.9 (A)); without the \
         mark it is a mistake in the record.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1D 1C Pass Pass\nPass\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1D ^I 1C Pass Pass\nPass\n";
    SUFFICIENT_BID_MARKED = "PBN0504", "sufficient-bid-marked-insufficient", Error, Auction, "§3.9",
        "`^I` before a bid that is sufficient",
        "`^I` marks an insufficient bid accepted by the opponents (§3.9 (A)). This bid is \
         higher than the previous bid (or is the first bid of the auction), so it is not \
         insufficient: remove the `^I`, or correct the bid.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1D ^I 1S Pass Pass\nPass\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1D 1S Pass Pass\nPass\n";
    INADMISSIBLE_DOUBLE = "PBN0505", "inadmissible-double", Error, Auction, "§3.9",
        "double that is not of an opponent's undoubled bid",
        "A player may only double the last bid, when an opponent made it and it has not \
         been doubled yet (Laws 19A, 36). PBN has no notation for an irregular double: it \
         is impossible and must be taken back (§3.9).",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1D Pass X Pass\n*\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1D Pass Pass X\n*\n";
    INADMISSIBLE_REDOUBLE = "PBN0506", "inadmissible-redouble", Error, Auction, "§3.9",
        "redouble that is not of an opponent's double",
        "A player may only redouble when the last bid was made by his side and doubled by \
         an opponent, with nothing but passes since (Laws 19B, 36). PBN has no notation for \
         an irregular redouble: it is impossible and must be taken back (§3.9).",
        bad: "[Dealer \"N\"]\n[Auction \"W\"]\n- 1D X Pass\nXX *\n",
        good: "[Dealer \"N\"]\n[Auction \"W\"]\n- 1D X XX\n*\n";
    CALL_AFTER_AUCTION_END = "PBN0507", "call-after-auction-end", Error, Auction, "§3.5",
        "call after the auction has ended",
        "The auction ends when three players pass in succession after a bid or double, \
         or when all four players pass; `AP` (all players pass) ends it at once, so it can \
         only be the last call (§3.5, §3.5.1). No call, `^S` or `+` can follow the end: \
         there is no next call to make.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass Pass Pass\nPass\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass Pass Pass\n";
    CALL_AFTER_AUCTION_MARKER = "PBN0508", "call-after-auction-marker", Error, Auction, "§3.5",
        "call after `*` or `+` in the auction",
        "`*` ends an auction that will not be continued, and `+` replaces the next call \
         of an auction to be continued, so it is placed after the last call (§3.5). \
         Either is the last token of the auction (notes and comments may follow).",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1C * Pass\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass *\n";
    AUCTION_PLUS_AND_STAR = "PBN0509", "auction-plus-and-star", Error, Auction, "§3.5",
        "`*` and `+` in the same auction",
        "`+` says the auction is to be continued; `*` that no further calls will or can be \
         given. §3.5: when `+` is used, the `*` character is forbidden to end the auction \
         section.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass + *\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass +\n";
    INCOMPLETE_AUCTION = "PBN0510", "incomplete-auction", Warning, Auction, "§3.5",
        "auction stops before its end without `*` or `+`",
        "The auction section ends with all passes, or with `*` when no further calls will \
         or can be given; an auction to be continued ends with `+` (§3.5). This one stops \
         before the final passes without either, so a reader cannot tell whether calls \
         are missing. `AP` writes the final passes in one token.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass Pass\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C AP\n";
    STAR_AFTER_CALL = "PBN0511", "star-after-call", Error, Auction, "§3.5",
        "`*` written right after a call, with calls after it",
        "`*` is a token by itself that ends an auction that will not be continued \
         (§3.2, §3.5), so the calls after it are not part of the auction. Some programs \
         (BEN, a bridge bot) write `*` right after a call to mark it alerted: `4C*` then \
         means an alerted 4C and the auction goes on. PBN marks an alert with a note \
         (§3.5.4: \"A note is used for indicating alerts\"). The unsafe fix writes the \
         `*` as a note reference with `[Note \"n:Alert\"]` at the end of the auction, \
         so that the calls after it count; `pbn fmt` keeps such a game as written until \
         then, since either reading changes what the auction says.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass 2C* Pass\nPass Pass\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass 2C =1= Pass\nPass Pass\n[Note \"1:Alert\"]\n";
    LEFT_OUT_PASSES = "PBN0512", "left-out-passes", Error, Auction, "§3.5",
        "the auction fits the Declarer tag only with passes before its first bid",
        "The auction lists every call from the dealer's (§3.5): the Auction tag names the \
         dealer and its first call is his. Some programs start the list at the opening \
         bid, leaving out the passes before it; every call is then read as another \
         player's, and the declarer of the auction is not the Declarer tag's (PBN0901) \
         game after game. When one, two or three passes before the first bid, and no \
         other number, make the declarer and the contract the tags', and the play \
         confirms the Declarer tag (declarer's left-hand opponent holds the opening \
         lead), this is reported once instead; its fix writes those passes, which \
         changes who made every call, so it is unsafe.",
        bad: "[Dealer \"N\"]\n[Deal \"N:2.5432.5432.5432 AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876\"]\n\
              [Declarer \"E\"]\n[Contract \"1NT\"]\n[Auction \"N\"]\n1NT AP\n[Play \"S\"]\nST S3 S2 SA\n*\n",
        good: "[Dealer \"N\"]\n[Deal \"N:2.5432.5432.5432 AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876\"]\n\
               [Declarer \"E\"]\n[Contract \"1NT\"]\n[Auction \"N\"]\nPass 1NT AP\n[Play \"S\"]\nST S3 S2 SA\n*\n";

    // ----- PBN06xx: the play ----------------------------------------------
    WRONG_OPENING_LEADER = "PBN0601", "wrong-opening-leader", Error, Play, "§3.6",
        "the Play tag does not name declarer's left-hand opponent",
        "The Play tag names the player of the first card: the opening leader, declarer's \
         left-hand opponent (§3.6). With `[Declarer \"^X\"]` (declarer and dummy swapped, \
         §3.4.13) that is the left-hand opponent of the irregular declarer X. A lead out of \
         turn is marked with `^L` (§3.9 (D)); only in an end position (§3.10) does the Play \
         tag choose the leader freely.",
        bad: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
              [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"N\"]\nH3 S4 S3 SK\n*\n",
        good: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
               [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\nSK H3 S4 S3\n*\n";
    CARD_NOT_IN_HAND = "PBN0602", "card-not-in-hand", Error, Play, "§3.6",
        "card played by a player who was not dealt it",
        "The play section is written in columns: each line is one trick, and the n-th \
         card of a line belongs to the n-th player clockwise from the player of the Play \
         tag, whoever led (§3.6, §1.2). The card must come from that player's hand in the \
         Deal tag (in an end position, §3.10, from the cards the Deal tag leaves him).",
        bad: "[Deal \"W:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\"]\n\
              [Declarer \"S\"]\n[Contract \"7NT\"]\n[Play \"W\"]\nSA S2 D2 C2\n*\n",
        good: "[Deal \"W:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\"]\n\
               [Declarer \"S\"]\n[Contract \"7NT\"]\n[Play \"W\"]\nSA H2 D2 C2\n*\n";
    CARD_PLAYED_TWICE = "PBN0603", "card-played-twice", Error, Play, "§3.6",
        "the same card played twice",
        "Every card is played once: after it has been played to a trick it is no longer \
         in its player's hand (§3.6). A card appearing twice in the play section is a \
         mistake in the record; `-` stands for a card that is unknown (§3.6.1).",
        bad: "[Deal \"W:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\"]\n\
              [Declarer \"S\"]\n[Contract \"7NT\"]\n[Play \"W\"]\nSA H2 D2 C2\nSA H3 D3 C3\n*\n",
        good: "[Deal \"W:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\"]\n\
               [Declarer \"S\"]\n[Contract \"7NT\"]\n[Play \"W\"]\nSA H2 D2 C2\nSK H3 D3 C3\n*\n";
    UNMARKED_REVOKE = "PBN0604", "unmarked-revoke", Error, Play, "§3.9",
        "card that does not follow suit although the player could",
        "A player must follow suit when he holds a card of the suit led. A revoke that was \
         not noticed in time is recorded with `^R` before the card (§3.9 (C)); without the \
         mark the card is a mistake in the record (or in the Deal tag).",
        bad: "[Deal \"W:AKQJT9876543.2.. .AKQJT9876543.2. ..AKQJT9876543.2 2...AKQJT9876543\"]\n\
              [Declarer \"S\"]\n[Contract \"7NT\"]\n[Play \"W\"]\nSA HA DA CA\n*\n",
        good: "[Deal \"W:AKQJT9876543.2.. .AKQJT9876543.2. ..AKQJT9876543.2 2...AKQJT9876543\"]\n\
               [Declarer \"S\"]\n[Contract \"7NT\"]\n[Play \"W\"]\nSA HA DA ^R CA\n*\n";
    REVOKE_MARK_WITHOUT_REVOKE = "PBN0605", "revoke-mark-without-revoke", Error, Play, "§3.9",
        "`^R` before a card that is not a revoke",
        "`^R` marks a revoke (§3.9 (C)): a card of another suit than the suit led, played \
         while holding a card of the suit led. A card that follows suit, a card of a player \
         void in the suit led, and the first card of a trick (a lead, also one out of turn \
         marked `^L`) cannot be revokes.",
        bad: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
              [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\nSK H3 ^R S4 S3\n*\n",
        good: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
               [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\nSK H3 S4 S3\n*\n";
    LEAD_MARK_ON_LEADER = "PBN0606", "lead-mark-on-leader", Error, Play, "§3.9",
        "`^L` before the card of the player who was on lead",
        "`^L` marks a lead out of turn (§3.9 (D)): the first card of a trick played by \
         another player than the one on lead. The player on lead is the opening leader in \
         the first trick and the winner of the previous trick afterwards; his lead is in \
         turn and takes no `^L`.",
        bad: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
              [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\n^L SK H3 S4 S3\n*\n",
        good: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
               [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\nSK H3 S4 S3\n*\n";
    MULTIPLE_LEADS_OUT_OF_TURN = "PBN0607", "multiple-leads-out-of-turn", Error, Play, "§3.9",
        "more than one `^L` in one trick",
        "A trick has one first card. `^L` marks the card led out of turn, and the other \
         three cards are played clockwise after it (§3.9 (D)), so a second `^L` in the \
         same trick cannot be right.",
        bad: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
              [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\nC5 ^L C2 ^L C6 CK\n*\n",
        good: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
               [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\nC5 ^L C2 C6 CK\n*\n";
    CARD_AFTER_END_OF_PLAY = "PBN0608", "card-after-end-of-play", Error, Play, "§3.6",
        "card after the last trick",
        "The play section ends after 13 tricks (§3.6), or in an end position (§3.10) \
         after as many tricks as the hands have cards. Nothing after that can have been \
         played.",
        bad: "[Deal \"N:A... .A.. ..A. ...A\"]\n[Declarer \"W\"]\n[Contract \"NT\"]\n\
              [Play \"N\"]\nSA HA DA CA\nSK\n",
        good: "[Deal \"N:A... .A.. ..A. ...A\"]\n[Declarer \"W\"]\n[Contract \"NT\"]\n\
               [Play \"N\"]\nSA HA DA CA\n";
    CARD_AFTER_PLAY_MARKER = "PBN0609", "card-after-play-marker", Error, Play, "§3.6",
        "card after `*`, or played after the `+` card",
        "`*` means that no further cards will or can be given (§3.6), so nothing follows \
         it. `+` replaces the next card to be played: cards of the same trick played before \
         it may stand after it in the line (the columns have a fixed order), but a card \
         played after it cannot; write `-` for those.",
        bad: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
              [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\nSK H3 S4 S3\n- C2 + CK\n",
        good: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
               [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\nSK H3 S4 S3\n- C2 + -\n";
    PLAY_PLUS_AND_STAR = "PBN0610", "play-plus-and-star", Warning, Play, "§3.6",
        "`*` and `+` in the same play section",
        "`+` says the play is to be continued; `*` that no further cards will or can be \
         given (§3.6). Together they contradict each other; for the auction §3.5 forbids \
         the combination explicitly.",
        bad: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
              [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\nSK H3 S4 S3\n- + - -\n*\n",
        good: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
               [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\nSK H3 S4 S3\n- + - -\n";
    INCOMPLETE_PLAY = "PBN0611", "incomplete-play", Warning, Play, "§3.6",
        "play stops before its end without `*`, `+` or `-`",
        "The play section ends after 13 tricks, or with `*` when no further cards will or \
         can be given; a play to be continued marks the next card to be played with `+` \
         (or `-`) (§3.6). This one stops early without a marker, so a reader cannot tell \
         whether cards are missing. A claim is written as `*` with the Result tag.",
        bad: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
              [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\nSK H3 S4 S3\n",
        good: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
               [Declarer \"S\"]\n[Contract \"5HX\"]\n[Play \"W\"]\nSK H3 S4 S3\n*\n";

    ROTATED_DEAL = "PBN0612", "rotated-deal", Error, Play, "§3.4.11",
        "the play fits the Deal only with its hands rotated",
        "The Deal tag gives each hand to a player (§3.4.11) and the play section's columns \
         give each card to a player (§3.6). When cards come from the wrong hands or revoke \
         trick after trick, yet every card fits once each player is given the hand the Deal \
         gives the player one, two or three seats clockwise from him, the program that wrote \
         the file rotated the Deal (a dealer or a first seat taken as another). This is one \
         mistake, reported once instead of a revoke or a wrong hand per card; its fix \
         rotates the Deal, which changes who held what, so it is unsafe.",
        bad: "[Deal \"W:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\"]\n\
              [Declarer \"S\"]\n[Contract \"7NT\"]\n[Play \"W\"]\nHA D2 C2 S2\nHK D3 C3 S3\n*\n",
        good: "[Deal \"W:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432...\"]\n\
               [Declarer \"S\"]\n[Contract \"7NT\"]\n[Play \"W\"]\nHA D2 C2 S2\nHK D3 C3 S3\n*\n";

    // ----- PBN09xx: consistency between tags --------------------------------
    DECLARER_MISMATCH = "PBN0901", "declarer-mismatch", Error, Consistency, "§3.4.13",
        "Declarer tag differs from the declarer of the auction",
        "The declarer is the player of the side that won the auction who first bid the \
         denomination of the final contract. The Declarer tag names him; `^X` names the \
         irregular declarer X when declarer and dummy were swapped (§3.4.13), i.e. the \
         partner of the declarer of the auction. When all four players pass the Declarer \
         tag is empty.",
        bad: "[Dealer \"S\"]\n[Declarer \"N\"]\n[Contract \"1C\"]\n[Auction \"S\"]\n1C AP\n",
        good: "[Dealer \"S\"]\n[Declarer \"S\"]\n[Contract \"1C\"]\n[Auction \"S\"]\n1C AP\n";
    CONTRACT_MISMATCH = "PBN0902", "contract-mismatch", Error, Consistency, "§3.4.14",
        "Contract tag differs from the contract of the auction",
        "The Contract tag gives the outcome of the auction (§3.1, §3.4.14): the level and \
         denomination of the last bid and its risk (X when doubled, XX when redoubled, \
         nothing otherwise), or \"Pass\" when all four players pass.",
        bad: "[Dealer \"S\"]\n[Declarer \"S\"]\n[Contract \"1C\"]\n[Auction \"S\"]\n1C X AP\n",
        good: "[Dealer \"S\"]\n[Declarer \"S\"]\n[Contract \"1CX\"]\n[Auction \"S\"]\n1C X AP\n";
    RESULT_MISMATCH = "PBN0903", "result-mismatch", Error, Consistency, "§3.4.15",
        "Result tag differs from the tricks of the play",
        "The Result must match the actual number of won tricks (§3.4.15). When all cards \
         were played it must equal the tricks won in the play section; when the play ends \
         with `*` (a claim) it cannot be fewer than the tricks already won, nor more than \
         the remaining tricks allow (the opponents' top trumps always win). A Result that \
         the players agreed on although it is wrong is written with `^` before it.",
        bad: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
              [Declarer \"S\"]\n[Contract \"5HX\"]\n[Result \"4\"]\n[Play \"W\"]\n\
              SK H3 S4 S3\nC5 C2 C6 CK\nS2 H6 S5 S7\nC8 CA CT C4\nD2 DA DT D3\nD4 DK H5 H7\n*\n",
        good: "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\
               [Declarer \"S\"]\n[Contract \"5HX\"]\n[Result \"9\"]\n[Play \"W\"]\n\
               SK H3 S4 S3\nC5 C2 C6 CK\nS2 H6 S5 S7\nC8 CA CT C4\nD2 DA DT D3\nD4 DK H5 H7\n*\n";
    RESULT_CARET_BUT_EQUAL = "PBN0904", "result-caret-but-equal", Warning, Consistency, "§3.4.15",
        "Result marked `^` equals the tricks actually won",
        "A `^` before the Result value says that the result differs from the actual number \
         of won tricks, because the players agreed on a wrong number (§3.4.15). This value \
         equals the tricks won in the play section, so the `^` is wrong.",
        bad: "[Deal \"W:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\"]\n\
              [Declarer \"N\"]\n[Contract \"7S\"]\n[Result \"^0\"]\n[Play \"E\"]\n*\n",
        good: "[Deal \"W:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\"]\n\
               [Declarer \"N\"]\n[Contract \"7S\"]\n[Result \"0\"]\n[Play \"E\"]\n*\n";
    DEALER_DIFFERS_FROM_BOARD = "PBN0905", "dealer-differs-from-board", Info, Consistency, "§3.4.4",
        "dealer is not the usual one for this board number",
        "In duplicate bridge the dealer rotates with the board number: North deals boards \
         1, 5, 9, 13, East 2, 6, 10, 14, South 3, 7, 11, 15 and West 4, 8, 12, 16 (and so \
         on modulo 16). PBN does not require this (teaching material often sets the dealer \
         freely), so this is only a hint that Board or Dealer may be wrong.",
        bad: "[Board \"1\"]\n[Dealer \"E\"]\n",
        good: "[Board \"1\"]\n[Dealer \"N\"]\n";
    VULNERABILITY_DIFFERS_FROM_BOARD = "PBN0906", "vulnerability-differs-from-board", Info,
        Consistency, "§3.4.4",
        "vulnerability is not the usual one for this board number",
        "In duplicate bridge the vulnerability follows the board number in a cycle of 16: \
         None, NS, EW, All, NS, EW, All, None, EW, All, None, NS, All, None, NS, EW. PBN does \
         not require this, so this is only a hint that Board or Vulnerable may be wrong.",
        bad: "[Board \"2\"]\n[Vulnerable \"None\"]\n",
        good: "[Board \"2\"]\n[Vulnerable \"NS\"]\n";
    SCORE_MISMATCH = "PBN0907", "score-mismatch", Warning, Consistency, "§4.2.1",
        "Score differs from the duplicate score of contract and result",
        "The Score tag gives the points of the game based on the trick score (§4.2.1). \
         This value differs from the duplicate score of the Contract, Declarer, Result and \
         Vulnerable tags. The score can deviate because of irregularities (explained in a \
         comment), hence only a warning.",
        bad: "[Vulnerable \"None\"]\n[Declarer \"S\"]\n[Contract \"4S\"]\n[Result \"10\"]\n\
              [Score \"NS 450\"]\n",
        good: "[Vulnerable \"None\"]\n[Declarer \"S\"]\n[Contract \"4S\"]\n[Result \"10\"]\n\
               [Score \"NS 420\"]\n";
    NONSTANDARD_CALL = "PBN0520", "nonstandard-call", Error, Auction, "§3.5.1",
        "call written in a form PBN does not define",
        "The call tokens of PBN are `Pass`, `X`, `XX`, `1C`…`7NT`, `AP` and `-` (lower case \
         allowed, §3.5.1, §3.11). This token is a common abbreviation (`1N` for `1NT`, `P` \
         for `Pass`, `D`/`Dbl` for `X`, `R`/`Rdbl` for `XX`); it was read as the call it \
         stands for so that the rest of the auction can be checked, but other PBN readers \
         reject it.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1N P P P\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1NT Pass Pass Pass\n";
    INVALID_CALL = "PBN0521", "invalid-call", Error, Auction, "§3.5.1",
        "token is not a call",
        "In the auction section only calls (`Pass`, `X`, `XX`, `1C`…`7NT`, `AP`, `-`), \
         their annotations, `*` and `+` may appear (§3.5, §3.5.1). A level must be 1–7 and \
         a denomination C, D, H, S or NT. Free text belongs in a `{…}` comment.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1 Pass Pass Pass\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass Pass Pass\n";
    NONSTANDARD_CARD = "PBN0620", "nonstandard-card", Error, Play, "§3.6.1",
        "card written in a form PBN does not define",
        "A card token is a suit letter followed by a rank letter (`SA`, `HT`), or `-` for an \
         unknown card (§3.6.1). This token (`--`, or a ten written `10`) was read as the \
         card it stands for.",
        bad: "[Deal \"N:AKQJ.AKQ.AKQ.AKQ - - -\"]\n[Declarer \"W\"]\n[Contract \"1NT\"]\n[Play \"N\"]\n-- - - -\n",
        good: "[Deal \"N:AKQJ.AKQ.AKQ.AKQ - - -\"]\n[Declarer \"W\"]\n[Contract \"1NT\"]\n[Play \"N\"]\n- - - -\n";
    INVALID_CARD = "PBN0621", "invalid-card", Error, Play, "§3.6.1",
        "token is not a card",
        "A card is `<suit><rank>` with suit S, H, D, C and rank A K Q J T 9 8 7 6 5 4 3 2, \
         or `-` (§3.6.1). The ten is the single character `T`.",
        bad: "[Deal \"N:AKQJ.AKQ.AKQ.AKQ - - -\"]\n[Declarer \"W\"]\n[Contract \"1NT\"]\n[Play \"N\"]\nS1 - - -\n",
        good: "[Deal \"N:AKQJ.AKQ.AKQ.AKQ - - -\"]\n[Declarer \"W\"]\n[Contract \"1NT\"]\n[Play \"N\"]\nSA - - -\n";
    RESULT_WITHOUT_CONTRACT = "PBN0908", "result-without-contract", Error, Consistency, "§3.4.15",
        "Result given although all players passed",
        "When all 4 players pass, the Declarer and Result tag values are empty strings \
         (§3.4.13, §3.4.15): there is no declarer to win tricks. A Result next to a \
         `Pass` contract or an empty Declarer has no meaning.",
        bad: "[Declarer \"\"]\n[Contract \"Pass\"]\n[Result \"1\"]\n",
        good: "[Declarer \"\"]\n[Contract \"Pass\"]\n[Result \"\"]\n";
    DENOMINATION_ONLY_CONTRACT = "PBN0909", "denomination-only-contract", Error, Consistency, "§3.10",
        "Contract gives only a denomination but the Deal is not an end position",
        "A Contract of only a denomination (`S`, `H`, `D`, `C`, `NT`) gives the trump of an \
         end position (§3.10): a game whose hands in the Deal have fewer than 13 cards. \
         With a full hand in the Deal the Contract is `<k><denomination><risk>` or `Pass` \
         (§3.4.14).",
        bad: "[Deal \"N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432\"]\n[Contract \"NT\"]\n",
        good: "[Deal \"N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432\"]\n[Contract \"3NT\"]\n";
    RUBBER_VULNERABILITY = "PBN0910", "rubber-vulnerability", Error, Consistency, "§4.2.6",
        "Vulnerable contradicts the games won in ScoreRubberHistory",
        "In a rubber the number of games won defines the vulnerability: a side that won a \
         game of the current rubber is vulnerable. The ScoreRubberHistory lists the \
         below-the-line points of each game; a finished game was won by the side with 100 \
         or more. The Vulnerable tag must be consistent with it (§4.2.6).",
        bad: "[Vulnerable \"None\"]\n[ScoreRubberHistory \"NS 0 0/120 0 EW 0 0/30 40\"]\n",
        good: "[Vulnerable \"NS\"]\n[ScoreRubberHistory \"NS 0 0/120 0 EW 0 0/30 40\"]\n";
}
