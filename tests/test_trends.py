"""Topic trends over the seeds (a real Chroma store): the counts per year beside the papers
stored, per venue when there are several, the chart as a real PNG, and a trend question's
answer and receipt."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import make_settings, seeds_with
from test_lists import LIST_QUESTION, PNG_MAGIC

from assistant.answering import final_answer
from assistant.list_lines import cited
from assistant.list_records import CROSS_ENCODER, MODEL, Candidate, ListedPaper, ListResult
from assistant.paper import Paper
from assistant.pipeline import Assistant
from assistant.references import receipt_line
from assistant.trend_replies import apart_line, claim_check
from assistant.trends import (
    TREND_SENSE,
    TrendResult,
    chart_figure,
    chart_name,
    count,
    counts_for,
    draw_chart,
    share_text,
    table_lines,
    topic_phrases,
    unwritable,
)
from assistant.types import Filters
from assistant.word_runs import writes_phrase


def draw_chart_ticks(trend: TrendResult) -> list[float]:
    return [float(t) for t in chart_figure(trend).axes[0].get_xticks()]


def test_trends_count_the_list_screens_papers_per_year(seed_assistant: Assistant,
                                                       tmp_path: Path) -> None:
    trend = seed_assistant.trends("reinforcement learning")
    assert trend.total >= 1 and sum(trend.years.values()) + trend.unknown_year == trend.total
    papers = seed_assistant.index.papers()
    for year, ids in trend.by_year.items():
        assert all(papers[pid].year == year for pid in ids) and len(ids) == trend.years[year]
    assert table_lines(trend)[0].split() == ["year", "papers", "of", "stored", "share"]
    ticks = draw_chart_ticks(trend)  # the seeds' one year: no 2024.6, no years around it
    assert ticks == [2025.0]
    assert trend.stored == {2025: 38} and trend.share(2025) == trend.years[2025] / 38
    path = draw_chart(trend, tmp_path / chart_name(trend.topic))
    assert path.name == "trends-reinforcement-learning.png"
    assert path.read_bytes().startswith(PNG_MAGIC) and trend.chart == str(path)


def test_trends_split_by_venue_when_there_are_several(seed_assistant: Assistant,
                                                      tmp_path: Path) -> None:
    papers = list(seed_assistant.index.papers().values())[:4]
    venues = ["NeurIPS", "ICML", "ICML", "NeurIPS"]
    years = [2019, 2019, 2021, 2021]
    listed = [ListedPaper(dataclasses.replace(p, venue=v, year=y), 1.0, "", False)
              for p, v, y in zip(papers, venues, years, strict=True)]
    result = ListResult("q", "topic", listed, 38, 38, 10, 0)
    trend = count(result, {2018: 5, 2019: 8, 2021: 40})  # no paper of 2020 is stored
    assert trend.years == {2018: 0, 2019: 2, 2021: 2}
    assert trend.venues == {"ICML": {2018: 0, 2019: 1, 2021: 1},
                            "NeurIPS": {2018: 0, 2019: 1, 2021: 1}}
    # a year the store holds no paper of is a gap, not a year of no interest ("2022 0"
    # had followed 2021 among the 13.9k), and each count stands beside its year's papers
    lines = table_lines(trend)
    assert lines[0].split() == ["year", "papers", "of", "stored", "share", "ICML", "NeurIPS"]
    assert [line.split()[:4] for line in lines[1:]] == [
        ["2018", "0", "5", "0.0%"], ["2019", "2", "8", "25.0%"],
        ["2020", "no", "papers", "stored"], ["2021", "2", "40", "5.0%"]]
    assert trend.gaps() == [(2020, 2020)]
    assert trend.public_json()["shares"] == {"2018": 0.0, "2019": 0.25, "2021": 0.05}
    assert draw_chart(trend, tmp_path / "v.png").read_bytes().startswith(PNG_MAGIC)
    # years asked one by one ("in 2019 or 2021"): the years between them were not asked
    trend.named_years = frozenset({2018, 2019, 2021})
    assert table_lines(trend)[3].split()[:3] == ["2020", "not", "asked"]
    # a gap of years left out and of years not stored is each ("not counting 2021" had read
    # "2021–2024 no papers stored", where 2021 holds 2,333)
    gapped = TrendResult(topic="t", years={2018: 1, 2022: 1}, venues={}, paper_ids=["a", "b"],
                         papers_in_store=8, papers_in_filter=8, screened=8,
                         stored={2018: 5, 2022: 3}, named_years=frozenset({2018, 2020, 2021, 2022}))
    assert [line.split()[:3] for line in table_lines(gapped)[2:4]] == [
        ["2019", "not", "asked"], ["2020–2021", "no", "papers"]]
    # a run: "in the last 3 years" of a store whose newest papers are of 2025 alone had
    # shown 2025's row only; the years asked before the first stored are a gap too
    recent = TrendResult(topic="t", years={2025: 2}, venues={}, paper_ids=["a", "b"],
                         papers_in_store=8, papers_in_filter=8, screened=8, stored={2025: 38},
                         asked_from=2023)
    assert [line.split()[:4] for line in table_lines(recent)[1:]] == [
        ["2023–2024", "no", "papers", "stored"], ["2025", "2", "38", "5.3%"]]
    # ...and the chart shades them, as it does a gap between counted years
    spans = [(round(p.get_x(), 1), round(p.get_width(), 1))
             for p in chart_figure(recent).axes[0].patches if p.get_label() == "no papers stored"]
    assert spans == [(2022.5, 2.0)]


def test_a_trend_counts_a_paper_writing_the_topic_apart_only_when_read_as_answering(
        seed_assistant: Assistant) -> None:
    paper = next(iter(seed_assistant.index.papers().values()))

    def listed(text: str, logit: float | None = None, reader: str | None = None) -> ListedPaper:
        return ListedPaper(dataclasses.replace(paper, title="A paper", text=text), 1.0, "",
                           reader is not None, logit, reader)

    topic = "graph neural networks"
    for written in ("We train Graph Neural Networks.", "A graph-neural-network model.",
                    "Our graph neural network scales."):
        assert counts_for(topic, listed(written))
    apart = "A neural network reads each graph."
    assert not counts_for(topic, listed(apart))
    assert not counts_for(topic, listed(apart, -2.0, CROSS_ENCODER))
    # the cross-encoder's yes on the words apart is backed by the topic's sense
    assert not counts_for(topic, listed(apart, 3.0, CROSS_ENCODER))
    assert counts_for(topic, listed(apart, 3.0, CROSS_ENCODER), TREND_SENSE)
    assert counts_for(topic, listed(apart, None, MODEL))
    # part of the phrase together ("networks on graphs"): the list's keeping decides (read
    # as not answering, the list kept it for its sense)
    together = "Convolutional networks on graphs learn neural fingerprints."
    assert counts_for(topic, listed(together, 3.0, CROSS_ENCODER))
    assert counts_for(topic, listed(together, -2.0, CROSS_ENCODER))
    assert counts_for("graph", listed(apart))  # a topic of one term: the list decides
    assert counts_for("graph neural networks or federated learning",
                      listed("Federated learning of clients."))
    # a hyphenated word written either way writes the phrase (review: "multitask learning"
    # had not counted "Multi-Task Learning" papers as writing it)
    for typed, written in [("multitask learning", "We study Multi-Task Learning."),
                           ("multi-task learning", "Multitask learning shares features."),
                           ("multi-task learning", "A multi task learning method.")]:
        assert counts_for(typed, listed(written)), (typed, written)
    assert not any(writes_phrase(phrase, listed("Each task of multi-agent learning.").paper)
                   for phrase in topic_phrases("multi-task learning"))
    # a paper kept for its title counts without the phrase (set by hand here: "Federated
    # Principal Component Analysis" was kept so for federated learning under the title
    # rule's first form, listed and not counted)
    titled = dataclasses.replace(listed("We run PCA across clients."), titled=True)
    assert counts_for("federated learning", titled)
    assert not counts_for("federated learning", listed("Federated clients share models; learning is local."))


def test_a_trend_does_not_count_graph_matching_with_neural_networks_as_gnns(
        seed_assistant: Assistant) -> None:
    """A 1988 paper casting vision as inexact graph matching solved by analog neural
    networks had been the first of "graph neural networks": the cross-encoder read its
    sentence holding the words (logit 5.2) as the topic. Read on the words apart and far from
    the topic's sense, it is not counted; a paper writing the phrase is, unread."""
    paper = next(iter(seed_assistant.index.papers().values()))
    matching = dataclasses.replace(
        paper, paper_id="matching", year=1988, title="Neural Networks for Model Matching",
        text="We cast vision problems as inexact graph matching problems, and use analog "
             "neural networks to perform the optimization.")
    gnn = dataclasses.replace(paper, paper_id="gnn", year=2019, title="A paper",
                              text="We study the expressive power of graph neural networks.")
    listed = [ListedPaper(matching, 1.2, matching.text, True, 5.2, CROSS_ENCODER),
              ListedPaper(gnn, 1.9, gnn.text, False)]
    read = [Candidate(matching, 1.0, 0.41, 1.24, sense=0.49, logit=5.2, judged=True,
                      reader=CROSS_ENCODER), Candidate(gnn, 1.0, 0.6, 1.9, sense=0.7)]
    result = ListResult("graph neural networks", "graph neural networks", listed, 2, 2, 2, 1,
                        candidates=read)
    trend = count(result, {1988: 84, 2019: 1427})
    assert trend.paper_ids == ["gnn"] and trend.years == {1988: 0, 2019: 1}
    assert trend.peaks().startswith("First counted in 2019")
    # the list on the topic lists both: the summary says why one is not counted
    assert trend.apart == 1 and trend.public_json()["listed_apart"] == 1
    assert trend.summary().endswith("; 1 more listed, not counted: the topic's words apart")
    # R12: the papers set apart are named, and their ids given, not only counted
    assert trend.public_json()["listed_apart_ids"] == ["matching"]
    assert apart_line(trend) == "Those set apart: “Neural Networks for Model Matching” (1988)."


def test_a_trend_counts_what_the_list_keeps_but_the_words_apart(
        seed_assistant: Assistant) -> None:
    """Among the 13.9k, `trends "capsule networks"` counted 9 papers where "Which papers use
    capsule networks?" listed 12: "Canonical Capsules" (logit -1.2, sense 0.69) and "Capsule
    Autoencoders" were kept by the list for their sense, and a trend counted only the
    cross-encoder's yes. A paper the list keeps counts unless its words are apart."""
    paper = next(iter(seed_assistant.index.papers().values()))
    capsules = dataclasses.replace(
        paper, title="Canonical Capsules: Self-Supervised Capsules in Canonical Pose",
        text="We decompose point clouds into capsules, learnt without labels.")
    by_sense = ListedPaper(capsules, 1.0, capsules.text, True, -1.2, CROSS_ENCODER)
    assert counts_for("capsule networks", by_sense, sense=0.69)
    unread = ListedPaper(capsules, 1.2, capsules.text, False, kept_unread=True)
    assert counts_for("capsule networks", unread)  # the list kept it on its cheap score
    apart = dataclasses.replace(capsules, title="A paper",
                                text="A capsule per part; the network is pruned.")
    assert not counts_for("capsule networks", dataclasses.replace(unread, paper=apart))
    assert counts_for("capsule networks", dataclasses.replace(by_sense, paper=apart), 0.69)


def test_words_apart_are_judged_per_alternative_and_need_two_terms(
        seed_assistant: Assistant) -> None:
    """A paper on one "or" alternative, writing it together, counts on the reading even when
    it holds the other's words scattered; a phrase of one repeated term ("learning to
    learn") has nothing to hold apart."""
    paper = next(iter(seed_assistant.index.papers().values()))
    spiking = dataclasses.replace(  # writes neither phrase; "spiking" beside "networks"
        paper, title="A paper", text="On a graph of cortical areas we simulate networks of "
        "spiking neurons; a neural code emerges.")
    meta = dataclasses.replace(paper, title="A paper", text="Learning a learner: we learn fast.")
    read = [ListedPaper(p, 1.2, p.text, True, 3.0, CROSS_ENCODER) for p in (spiking, meta)]
    assert counts_for("spiking neural networks", read[0], sense=0.3)
    assert not counts_for("graph neural networks", read[0], sense=0.3)  # its words apart
    assert counts_for("graph neural networks or spiking neural networks", read[0], sense=0.3)
    assert counts_for("learning to learn", read[1], sense=0.3)


def test_a_trend_question_is_answered_with_the_counts_per_year(seed_assistant: Assistant
                                                               ) -> None:
    answer = final_answer(seed_assistant.answer_stream(
        "How has interest in reinforcement learning grown?"))
    trend = seed_assistant.trends("reinforcement learning")
    lines = answer.answer.splitlines()
    assert lines[0] == f"{trend.summary()}." and lines[1] == trend.peaks()
    assert lines[2] == table_lines(trend)[0]
    assert answer.receipt == trend.receipt() and answer.receipt.matching == trend.total >= 1
    assert receipt_line(answer.receipt).endswith(f"· counted {trend.total}")  # not "listed"
    assert answer.receipt.counted == trend.paper_ids  # `ask --json` names the papers counted
    # and cites them, as a list does: they had been in the receipt's ids alone, no sources
    assert sorted(s.paper_id for s in answer.sources) == sorted(trend.paper_ids)
    assert [c.paper_id for c in answer.citations] == [s.paper_id for s in answer.sources]
    # a count quotes no sentence (ScreenSettings.quotes off): no highlight, not one of ""
    assert all(c.highlights == [] for c in answer.citations)
    years = [s.year or 0 for s in answer.sources]
    assert years == sorted(years, reverse=True) and answer.receipt.cited == trend.total
    listed = final_answer(seed_assistant.answer_stream(LIST_QUESTION))
    assert listed.receipt is not None and listed.receipt.matching == len(listed.sources)
    screened = seed_assistant.list_papers(LIST_QUESTION).papers  # the whole list, not top k
    assert [s.paper_id for s in listed.sources] == [p.paper.paper_id for p in screened]


def test_a_trend_question_asked_yes_or_no_is_typed_as_a_topic(seed_assistant: Assistant
                                                              ) -> None:
    """The Lists tab and `assistant trends` read a question typed as the topic: "Has
    interest in X declined?" had been searched with its "has" and "declined"."""
    trend = seed_assistant.trends("Has interest in reinforcement learning declined?")
    assert trend.topic == "reinforcement learning"


def test_a_trend_says_when_its_topic_was_first_counted_and_most() -> None:
    """"Which year had the most papers on X?" and "When did X first appear?" are trend
    questions: the line under the count answers them, by papers and by share."""
    trend = TrendResult(topic="federated learning", years={2016: 0, 2017: 2, 2020: 20, 2021: 46},
                        venues={}, paper_ids=["p"] * 68, papers_in_store=9000,
                        papers_in_filter=9000, screened=300,
                        stored={2016: 568, 2017: 679, 2020: 1898, 2021: 2333})
    assert trend.peaks() == "First counted in 2017; most in 2021: 46 papers (2.0% of 2,333)."
    trend.years[2017], trend.stored[2017] = 5, 20  # a small year's larger share is named
    assert trend.peaks().endswith("; the largest share in 2017: 25.0% (5 of 20).")
    trend.years[2017] = 2  # ...unless it is a share of a paper or two
    assert trend.peaks() == "First counted in 2017; most in 2021: 46 papers (2.0% of 2,333)."
    tied = dataclasses.replace(trend, years={2019: 10, 2020: 4, 2021: 10})  # a tie is named
    assert tied.peaks().startswith("First counted in 2019; most in 2019 and 2021: 10 papers each")
    three = dataclasses.replace(trend, years={2019: 10, 2020: 10, 2021: 10})  # R7: "and … and"
    assert three.peaks().startswith("First counted in 2019; most in 2019, 2020 and 2021: 10 papers each")
    none = dataclasses.replace(trend, years={2016: 0}, paper_ids=[])
    assert none.peaks() == ""
    # a count of no topic (an author's papers) is titled by its filter, not "on “”"
    mine = dataclasses.replace(trend, topic="", filters="author Bengio")
    assert chart_figure(mine).axes[0].get_title() == "Papers of author Bengio per year (68 in all)"


def test_a_trend_of_no_paper_says_it_counted_none(seed_assistant: Assistant) -> None:
    """A trend of none is a valid answer whose receipt says "counted 0" (it had said
    "listed 0", as a list's does), and a list's receipt names no papers counted."""
    answer = final_answer(seed_assistant.answer_stream(
        "How has interest in wombat burrow thermoregulation grown?"))
    assert answer.receipt is not None and answer.receipt.counted == []
    assert receipt_line(answer.receipt).endswith("· counted 0")
    listed = final_answer(seed_assistant.answer_stream(LIST_QUESTION)).receipt
    assert listed is not None and listed.counted is None
    assert receipt_line(listed).endswith(f"· listed {listed.matching}")


def test_a_trend_of_a_list_question_names_its_topic_without_the_question_mark(
        seed_assistant: Assistant) -> None:
    """The Lists tab counts what its box holds, often a list question: the chart's title
    and summary had read “use reinforcement learning?”."""
    trend = seed_assistant.trends(LIST_QUESTION)
    assert trend.topic == "use reinforcement learning" and "?”" not in trend.summary()


def test_a_trend_checks_the_years_a_peak_question_names() -> None:
    """"Did research on GANs peak in 2019?": the named year's count, share and rank among
    the counted years, so that the claim can be checked against the table."""
    trend = TrendResult(topic="GANs", years={2016: 10, 2017: 29, 2019: 56, 2020: 56, 2021: 45},
                        venues={}, paper_ids=["p"] * 196, papers_in_store=9000,
                        papers_in_filter=9000, screened=300,
                        stored={2016: 568, 2017: 679, 2019: 1427, 2020: 1898, 2021: 2333})
    assert claim_check(trend, 2019, 2019) == ("2019: 56 papers (3.9% of 1,427); 1st of 5 years by "
                                             "papers, tied with 2020; 2nd by share.")
    assert claim_check(trend, 2017, 2017) == ("2017: 29 papers (4.3% of 679); 4th of 5 years by "
                                             "papers; 1st by share.")
    assert claim_check(trend, 0, 2018) == ("Within years up to 2018, the most in 2017: 29 papers "
                                          "(4.3% of 679); 4th of 5 years by papers; 1st by share.")
    assert claim_check(trend, 2030, 2031) == ""  # no counted year in the span


def test_a_peak_question_is_counted_over_every_year_and_checks_its_year(
        seed_assistant: Assistant) -> None:
    """"Did research on X peak in 2025?" had been answered from 2025's papers alone (the
    year read as a filter): it is a trend, unfiltered, with a line on the year it names."""
    answer = final_answer(seed_assistant.answer_stream(
        "Did research on reinforcement learning peak in 2025?"))
    trend = seed_assistant.trends("reinforcement learning")
    lines = answer.answer.splitlines()
    assert answer.filters is None and lines[:2] == [f"{trend.summary()}.", trend.peaks()]
    assert lines[2] == claim_check(trend, 2025, 2025) and lines[2].startswith("2025: ")


def test_a_chart_path_in_a_missing_folder_or_not_png_is_refused_and_nothing_made(
        tmp_path: Path) -> None:
    """`trends --chart /nonexistent/dir/x.png` had made /nonexistent/dir at the filesystem's
    root, and `--chart x.txt` had written a PNG under a .txt name: each is refused, naming
    why, and no folder or file is left."""
    missing = tmp_path / "nonexistent" / "dir"
    assert unwritable(missing / "x.png") == f"the folder {missing} does not exist"
    assert not (tmp_path / "nonexistent").exists()
    assert unwritable(tmp_path / "x.txt") == "the chart is a PNG, not .txt"
    assert unwritable(tmp_path / "chart") == "it has no .png suffix"
    assert unwritable(tmp_path / "x.png") is None and unwritable(tmp_path / "X.PNG") is None
    assert list(tmp_path.iterdir()) == []


def test_a_list_questions_verb_is_no_word_of_the_phrase_a_trend_counts(
        seed_assistant: Assistant) -> None:
    """A list question counted per year ("Which papers use reinforcement learning?") had
    its verb read as the phrase's first word: "We use deep reinforcement learning" held
    (use, reinforc, learn) apart, and was listed and not counted."""
    paper = next(iter(seed_assistant.index.papers().values()))
    deep = dataclasses.replace(paper, title="A paper", text="We use deep reinforcement learning.")
    listed = [ListedPaper(deep, 1.2, deep.text, False, kept_unread=True)]
    result = ListResult(LIST_QUESTION, "use reinforcement learning?", listed, 38, 38, 20, 0)
    trend = count(result, {2025: 38})
    assert trend.paper_ids == [deep.paper_id] and trend.apart == 0
    assert topic_phrases("use reinforcement learning?", "use") == [("reinforc", "learn")]


def test_a_paper_quoted_by_no_sentence_has_no_highlight() -> None:
    """The API's trend citations had carried "highlights": [""] for papers counted with no
    quoted sentence (a hostile run of the MCP tools)."""
    paper = Paper("p", "f#1", "A Paper", "Its abstract.", year=2019)
    _, citations = cited([ListedPaper(paper, 1.0, "", False),
                          ListedPaper(paper, 1.0, "Its abstract.", False)])
    assert [c.highlights for c in citations] == [[], ["Its abstract."]]


def test_a_range_the_question_leaves_open_shows_no_gap_before_the_store(
        seed_assistant: Assistant) -> None:
    """A review: "…, not counting 2019?" (the years 1800 on but 2019) had printed a first row
    "1800–2024 no papers stored"; only a year the question states starts the table."""
    answer = final_answer(seed_assistant.answer_stream(
        "How has the number of papers on language models changed over time, not counting 2019?"))
    assert "1800" not in answer.answer
    recent = final_answer(seed_assistant.answer_stream("How many papers on language models since 2023?"))
    assert "2023–2024" in recent.answer and "no papers stored" in recent.answer


def test_a_year_without_an_authors_paper_is_not_said_to_hold_none(
        seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A run among the 13.9k: `trends "reinforcement learning" --author "Sergey Levine"`
    labelled 2012 "no papers stored", where the store holds 367 papers of 2012; under an
    author's filter such a year holds none within the filter."""
    rows = [("Capsules A", "Capsule networks route parts to wholes.", "Geoffrey Hinton", 2017),
            ("Capsules B", "Capsule networks with EM routing.", "Geoffrey Hinton", 2019),
            ("Capsule Graphs", "Capsule networks classify graphs.", "Zhang Xinyi", 2018)]
    app = Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "gaps", rows,
                                             ("title", "abstract", "authors", "year"))))
    mine = app.trends("capsule networks", Filters(author="Geoffrey Hinton"))
    assert mine.gap_label == "none stored within the filter"
    assert any("none stored within the filter" in line for line in table_lines(mine))
    assert app.trends("capsule networks").gap_label == "no papers stored"


@pytest.mark.parametrize(("share", "text"), [
    (3 / 13_872, "0.022%"), (1 / 13_872, "0.0072%"), (0.0, "0.0%"), (0.038, "3.8%"),
    (1 / 1_898, "0.053%"), (5e-7, "0.000050%"), (0.001, "0.1%"),  # C57: "0.1%" and "5e-05%"
    (0.000996, "0.1%"),  # C58: not "0.100%"
    (13_871 / 13_872, ">99.9%"), (1.0, "100.0%"), (None, "")])
def test_a_share_never_rounds_to_none_or_to_all(share: float | None, text: str) -> None:
    """A count of epilepsy papers among the 13.9k (3 papers) had said "In all, 0.0% of the
    13,872 papers", which reads as none: a share one decimal would round to none or to all
    keeps two significant digits or says it is short of all."""
    assert share_text(share) == text
    rare = TrendResult(topic="epilepsy", years={2004: 1, 2012: 1, 2017: 1}, venues={},
                       paper_ids=["a", "b", "c"], papers_in_store=13_872,
                       papers_in_filter=13_872, screened=209,
                       stored={2004: 207, 2012: 368, 2017: 679})
    assert rare.overall_share() == "In all, 0.022% of the 13,872 papers."


CAPSULE_YEARS = [
    ("Capsule Networks for Digits",
     "Capsule networks route parts to wholes with dynamic routing between capsules.", 2017),
    ("Matrix Capsules", "Capsule networks with EM routing recognise objects from new viewpoints.", 2018),
    ("Stacked Capsule Autoencoders", "Capsules learn part-whole hierarchies without labels.", 2019),
    ("Routing by Agreement",
     "We study routing of parts to wholes in networks of capsules and attention.", 2018),
    ("Part-Whole Graphs",
     "Networks that group parts into wholes, like capsules, for object recognition.", 2019),
    ("Equivariant Networks",
     "Group equivariant networks share weights across viewpoints, as capsule networks aim to.", 2018),
    ("Attention Routing",
     "Attention routes information between layers of a network, a kind of capsule routing.", 2017),
    ("Vision Parts", "Object parts and viewpoints in convolutional networks.", 2018)]


def test_a_count_within_years_is_the_stores_count_of_those_years(
        seed_dir: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """R6: "How many papers on Bayesian optimization were published between 2010 and 2015?"
    counted 99 papers among the 13.9k (10 write it), where the store's count holds 18 of those
    years: within a range, the reading budget reached weaker papers than the store's did. A
    year's count is the store's count of it, with or without a range (a budget of 2 here,
    which the store's band outruns)."""
    app = Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "windows", CAPSULE_YEARS,
                                             ("title", "abstract", "year"))))
    monkeypatch.setattr("assistant.list_answers.TREND_MAX_REREAD", 2)
    whole = app.trends("capsule networks", reread=2)
    assert whole.unread_left_out >= 1  # the store's band outruns the budget
    for years in [(2019, 2019), (2017, 2018), (2018, 2019)]:
        window = app.trends("capsule networks", Filters(years=years), reread=2)
        inside = [pid for pid in whole.paper_ids
                  if years[0] <= (app.index.papers()[pid].year or 0) <= years[1]]
        assert sorted(window.paper_ids) == sorted(inside), years
        assert window.years == {y: n for y, n in whole.years.items() if years[0] <= y <= years[1]}
        assert window.screened <= whole.screened and window.reread <= whole.reread  # its share
        assert "restricted to the range" in window.how_counted()  # C58: its reads, the store's
    # C58: a range in the topic's words is read once, not again in the store's screen
    worded = app.trends("capsule networks since 2019", reread=2)
    assert sorted(worded.paper_ids) == sorted(
        pid for pid in whole.paper_ids if (app.index.papers()[pid].year or 0) >= 2019)
