"""Match equity tables: the bundled Kazaross-XG2 table, lookups, and the readers."""

from __future__ import annotations

import itertools

import pytest

from backgammon.cube import met
from backgammon.errors import BackgammonError, MatchEquityError
from backgammon.cube.met import MatchEquityTable

TABLE = met.default_table()
N = TABLE.length


def test_bundled_table_is_kazaross_xg2_to_25_points_with_its_notice():
    assert N == 25
    assert "Kazaross" in TABLE.name
    # The file's notice allows copying only with it kept: it travels with the data.
    assert "Copyright (C) 2011 Neil Kazaross" in TABLE.notice
    assert "notice are preserved" in TABLE.notice


def test_entries_read_from_the_published_table():
    # Values as printed in gnubg's Kazaross-XG2.xml (row = own away, column = opponent's).
    assert met.equity(1, 2) == 0.67736          # the Crawford game, leader 1-away
    assert met.equity(2, 1) == 0.32264
    assert met.equity(3, 5) == 0.64795
    assert met.equity(25, 25) == 0.5
    assert met.equity(1, 25) == 0.99905
    # Post-Crawford: the trailer 2-away against the leader's free drop.
    assert met.equity(2, 1, post_crawford=True) == 0.48803
    assert met.equity(1, 2, post_crawford=True) == pytest.approx(0.51197)
    assert met.equity(3, 1, post_crawford=True) == 0.32264


def test_equal_scores_are_even_and_every_entry_strictly_between_0_and_1():
    for n in range(1, N + 1):
        assert met.equity(n, n) == 0.5
    for a, b in itertools.product(range(1, N + 1), repeat=2):
        assert 0.0 < met.equity(a, b) < 1.0
        assert met.equity(a, b) + met.equity(b, a) == pytest.approx(1.0, abs=1e-6)


def test_being_closer_to_winning_is_never_worse():
    for a, b in itertools.product(range(1, N), range(1, N + 1)):
        assert met.equity(a, b) >= met.equity(a + 1, b)
    post = [met.equity(n, 1, post_crawford=True) for n in range(1, N + 1)]
    assert post == sorted(post, reverse=True)


def test_finished_matches_and_bad_scores():
    assert met.equity(0, 3) == 1.0 and met.equity(-2, 3) == 1.0   # a gammon can overshoot
    assert met.equity(3, 0) == 0.0
    with pytest.raises(MatchEquityError, match="both"):
        met.equity(0, 0)
    with pytest.raises(MatchEquityError, match="beyond the longest match"):
        met.equity(32768, 3)    # the table extends to every match the library plays
    with pytest.raises(MatchEquityError, match="post-Crawford"):
        met.equity(3, 4, post_crawford=True)
    with pytest.raises(TypeError):
        met.equity(2.0, 3)
    with pytest.raises(TypeError):
        met.equity(True, 3)
    assert issubclass(MatchEquityError, BackgammonError)


def test_gammon_values_worked_by_hand():
    # 2-away vs 1-away (Crawford game): a single win leads to DMP (0.5), a gammon
    # wins the match (1.0), a loss loses it (0.0): (1 - 0.5) / (0.5 - 0) = 1.
    own, opp = met.gammon_values(2, 1)
    assert own == pytest.approx(1.0)
    assert opp == 0.0                     # the leader's gammon adds nothing
    # Post-Crawford leader: every win wins the match.
    assert met.gammon_values(1, 5, post_crawford=True)[0] == 0.0
    # Long matches approach money play, where a gammon's extra point is half of the 2-point swing.
    own, opp = met.gammon_values(25, 25)
    assert own == pytest.approx(opp) and abs(own - 0.5) < 0.05


def _xml(pre: list[list[float]], post: str, extra: str = "") -> str:
    rows = "".join("<row>" + "".join(f"<me>{v}</me>" for v in r) + "</row>" for r in pre)
    return (f'<?xml version="1.0"?>{extra}<!-- A notice -->'
            f'<met><info><name>Tiny</name><description>two points</description>'
            f'<length>{len(pre)}</length></info>'
            f'<pre-crawford-table type="explicit">{rows}</pre-crawford-table>{post}</met>')


POST = '<post-crawford-table type="explicit" player="both"><row><me>0.5</me><me>0.49</me></row></post-crawford-table>'


def test_gnubg_xml_reader_and_json_round_trip(tmp_path):
    t = MatchEquityTable.from_gnubg_xml(_xml([[0.5, 0.7], [0.3, 0.5]], POST))
    assert (t.name, t.description, t.notice, t.length) == ("Tiny", "two points", "A notice", 2)
    assert t.equity(2, 1) == 0.3 and t.equity(2, 1, post_crawford=True) == 0.49
    back = MatchEquityTable.from_json(t.to_json())
    assert back == t and back.notice == t.notice
    (tmp_path / "t.xml").write_text(_xml([[0.5, 0.7], [0.3, 0.5]], POST))
    (tmp_path / "t.json").write_text(t.to_json())
    assert MatchEquityTable.load(str(tmp_path / "t.xml")) == t
    assert MatchEquityTable.load(str(tmp_path / "t.json")) == t
    assert MatchEquityTable.from_json(TABLE.to_json()) == TABLE


def test_gnubg_xml_post_crawford_tables_per_player():
    two = POST.replace('player="both"', 'player="0"') + POST.replace('player="both"', 'player="1"')
    assert MatchEquityTable.from_gnubg_xml(_xml([[0.5, 0.7], [0.3, 0.5]], two)).post_crawford == (0.5, 0.49)
    differ = two.replace("0.49", "0.48", 1)
    with pytest.raises(MatchEquityError, match="differ by player"):
        MatchEquityTable.from_gnubg_xml(_xml([[0.5, 0.7], [0.3, 0.5]], differ))


@pytest.mark.parametrize("text, message", [
    ("not xml", "not a gnubg MET"),
    (_xml([[0.5, 0.7], [0.3, 0.5]], ""), "no post-Crawford"),
    (_xml([[0.5, 0.7], [0.4, 0.5]], POST), "not symmetric"),
    (_xml([[0.5, 0.7], [0.3]], POST), "2 x 2"),
    (_xml([[0.5, 1.7], [-0.7, 0.5]], POST), "from 0 to 1"),
    (_xml([[0.5, 0.7], [0.3, 0.5]], POST).replace('type="explicit"', 'type="formula"', 1), "formula"),
    (_xml([[0.5, 0.7], [0.3, 0.5]], POST).replace("<me>0.7</me>", "<me>x</me>"), "not a match winning"),
    (_xml([[0.5, 0.7], [0.3, 0.5]], POST).replace("<length>2", "<length>3"), "length"),
    (_xml([[0.5, 0.7], [0.3, 0.5]], POST, '<!DOCTYPE met [<!ENTITY a "aaaa">]>'), "no entities"),
    ("<met>" + "<x>" * 20 + "</x>" * 20 + "</met>", "nested"),
    (" " * (1 << 20 + 1), "at most"),
])
def test_gnubg_xml_reader_refuses_malformed_tables(text, message):
    with pytest.raises(MatchEquityError, match=message):
        MatchEquityTable.from_gnubg_xml(text)


@pytest.mark.parametrize("text, message", [
    ("{", "not a JSON"),
    ("[" * 100000, "not a JSON"),
    ('{"format": "other"}', "not a"),
    ('{"format": "backgammon-met", "version": 2}', "version"),
    ('{"format": "backgammon-met", "version": 1, "name": "x"}', "lacks"),
    ('{"format": "backgammon-met", "version": 1, "name": "x", "pre_crawford": [[0.5, "a"], [0.5, 0.5]],'
     ' "post_crawford": [0.5, 0.5]}', "is a number"),
])
def test_json_reader_refuses_malformed_tables(text, message):
    with pytest.raises(MatchEquityError, match=message):
        MatchEquityTable.from_json(text)
