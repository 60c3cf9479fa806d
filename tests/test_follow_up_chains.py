"""A chat follow-up that leans on a narrowed list ("only the ones from 2018", then "what
about its limitations?"), and a narrowing that names an author in full ("how many of them
are by Sara Sabour?"): each asks of the list the chat showed."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_settings, seeds_with
from test_follow_ups import CAPSULES as CAPSULES_ROWS
from test_follow_ups import LIST, authors_store, chat, readers_of, years_store  # noqa: F401 (the fixtures)

from assistant.answering import final_answer
from assistant.errors import BadInputError
from assistant.follow_up_phrases import fragment_filters, swapped_topic, their_papers
from assistant.leaning import leans_on_previous
from assistant.narrowing import narrowed, swapped
from assistant.pipeline import Assistant


def test_how_many_of_them_are_by_a_full_name_filters_by_that_name(
        request: pytest.FixtureRequest) -> None:
    """A run: "how many of them are by Andreas Krause?" had been read as a fragment (the
    name's two words made it a question of its own), its filter "author how many are
    Andreas Krause"."""
    store: Assistant = request.getfixturevalue("authors_store")
    history = chat(store, LIST)
    answer = final_answer(store.answer_stream("how many of them are by Sara Sabour?",
                                                      history))
    assert answer.filters == "author Sara Sabour"


def test_a_follow_up_after_a_narrowing_asks_of_the_narrowed_list(
        request: pytest.FixtureRequest) -> None:
    """A run: "what about its limitations?" after a list and "only the ones from 2018" was
    joined to the fragment alone (a paper on poker), and "what about their limitations?"
    after it to the two follow-ups alone; each is now asked of the list, under the year."""
    store: Assistant = request.getfixturevalue("authors_store")
    history = chat(store, LIST, "only the ones from 2019")
    for question in ("what about its limitations?", "what about their results?"):
        answer = final_answer(store.answer_stream(question, history))
        asked = " ".join([*(q for q, _ in history[2:]), question])
        assert answer.standalone_question == f"{LIST} {asked} papers in 2019"
        assert answer.sources and {s.year for s in answer.sources} == {2019}, question
        history.append((question, answer.answer))


def test_a_follow_up_after_an_authors_narrowing_keeps_the_author(
        request: pytest.FixtureRequest) -> None:
    """A run: "what about their results?" after a list and "only the ones by Geoffrey
    Hinton" had lost the author, and cited papers of others."""
    store: Assistant = request.getfixturevalue("authors_store")
    history = chat(store, LIST, "only the ones by Sara Sabour")
    answer = final_answer(store.answer_stream("what about their results?", history))
    assert answer.filters == "author Sara Sabour" and answer.sources


def test_two_papers_asked_of_by_title_are_each_quoted(request: pytest.FixtureRequest) -> None:
    """A run: "how do papers 2 and 5 differ?" named both papers' titles but quoted one, the
    other's sentences scoring below the first's; a paper the question names by its title
    in quotes is quoted at least once."""
    store: Assistant = request.getfixturevalue("authors_store")
    question = "how do “Capsules for Object Parts” and “Sparse Attention” differ in routing?"
    answer = final_answer(store.answer_stream(question))
    assert {c.title for c in answer.citations} == {"Capsules for Object Parts", "Sparse Attention"}


def test_a_pronoun_after_a_place_asks_of_that_place_s_paper(request: pytest.FixtureRequest) -> None:
    """A run: "who wrote it?" after "summarize the third one" had been searched as "third one
    wrote" (a false "no"), "what dataset does it use?" answered from other papers of the
    list, and "what datasets do they use?" after "what about the fifth one?" refused."""
    store: Assistant = request.getfixturevalue("years_store")
    listed = final_answer(store.answer_stream(LIST))
    history = [(LIST, listed.answer)]
    for question, n in (("summarize the third one", 2), ("who wrote it?", 2),
                        ("when was it published?", 2), ("what about the first one?", 0),
                        ("what datasets do they use?", 0), ("what are their limitations?", 0)):
        answer = final_answer(store.answer_stream(question, history))
        assert answer.refusal is None, question
        assert [c.title for c in answer.citations] == [listed.sources[n].title], question
        history.append((question, answer.answer))
    # "which of them…" still asks of the list, and a question of its own stands alone
    which = final_answer(store.answer_stream("which of them use routing?", history))
    assert len(which.citations) > 1
    assert not leans_on_previous("What is dropout and how is it used?")
    assert leans_on_previous("what dataset does it use?")
    assert leans_on_previous("What is special about it?")  # a review: had stood alone
    assert not leans_on_previous("What is dropout? How is it used?")  # a second review
    assert leans_on_previous("What is MMD? Do the authors use it?")  # a third review
    # a run: after two turns on VAEs, "What is a GAN? How is it used?" was joined to them
    assert not leans_on_previous("What is a GAN? How is it used?")
    # a review: "What is a downside?" had stood alone, answered from a paper on sparsity
    assert all(map(leans_on_previous, ["What is a downside?", "What is an alternative?"]))
    assert not leans_on_previous("What is a transformer?")  # a second review: a new subject
    assert leans_on_previous("What is an example?") and not leans_on_previous("What is a cost function?")
    assert leans_on_previous("What is a limitation of it?")
    # a run: "which one has the best results?" after a summary was asked of the store
    assert leans_on_previous("which one has the best results?")
    assert not leans_on_previous("Which one of the GAN papers uses spectral normalization?")


@pytest.mark.parametrize(("question", "topic"), [
    ("what about federated learning?", "federated learning"),  # a run: a participle had
    ("what about certified defenses?", "certified defenses"),  # read as an aspect
    # a third review: a word that is also an aspect's, leading a name
    ("what about risk-sensitive RL?", "risk-sensitive RL"), ("what about issue tracking?", "issue tracking"),
    ("what about risks?", None), ("what about examples?", None),  # a fourth: the list's
    ("what about reported results?", None), ("what about unsupervised ones?", None),
    ("what about the proposed method?", None), ("what about related work?", None),
    # a review: what papers did is an aspect, and a topic's later words may be anything
    ("what about reported accuracy?", None),
    ("what about federated learning in the clinic?", "federated learning in the clinic"),
])
def test_a_topic_led_by_a_participle_is_another_topic(question: str, topic: str | None) -> None:
    assert swapped_topic(question, lambda words: True) == topic


def test_a_place_past_a_list_of_one_says_only_one_is_shown(request: pytest.FixtureRequest) -> None:
    """A run: "compare the first two" after a list of one paper said "they show [1]–[1]"."""
    from assistant.errors import BadInputError

    store: Assistant = request.getfixturevalue("years_store")
    history = chat(store, "Which papers use sparse attention?")
    assert "[1]" in history[0][1] and "[2]" not in history[0][1]
    with pytest.raises(BadInputError, match=r"they show only \[1\];"):
        final_answer(store.answer_stream("compare the first two", history))


@pytest.mark.parametrize("question", [
    "how does dropout work and why is it useful?", "what about federated learning and its privacy?",
    "Is it true that transformers beat RNNs?", "What is dropout and how is it used?",
])
def test_a_question_of_its_own_after_a_place_is_not_asked_of_that_paper(question: str) -> None:
    """A review: after "summarize the third one", these had been asked of the third paper
    (the pronoun replaced by its title), though each names a subject of its own."""
    from assistant.places import resolved

    history = [(LIST, "[1] A [2] B [3] C"), ("summarize the third one", "C: … [1]")]
    assert resolved(question, history, lambda q, h: pytest.fail("asked of a paper")) is None


@pytest.mark.parametrize("question", [
    "What loss function does it use?", "Ok, who wrote it?", "In that paper, what datasets do they use?",
    "how do they handle noisy labels?", "Thanks, and who wrote it?",
    "Which benchmarks and metrics do they report?",  # a third review
])
def test_a_pronoun_follow_up_with_a_few_words_is_asked_of_the_place(question: str) -> None:
    """A second review: three keywords, or a filler before a comma, had counted as a
    subject of its own, and these were answered from other papers."""
    from assistant.places import resolved
    from assistant.types import Answer, SourceRef

    listed = Answer(question=LIST, answer="", mode="extractive", sources=[
        SourceRef(n=n, paper_id=str(n), title=t, source=f"f#{n}", score=1.0)
        for n, t in enumerate("ABC", start=1)])
    history = [(LIST, "[1] A [2] B [3] C"), ("summarize the third one", "C: … [1]")]
    assert "“C”" in (resolved(question, history, lambda q, h: listed) or "")


def test_a_long_chain_of_pronouns_is_read_without_recursion() -> None:
    """A review: each "what does it do?" had read every earlier one again, recursively; a
    chat of 1,000 such turns raised RecursionError (the call returning is the check)."""
    from assistant.places import past_pointed

    history = [(LIST, "[1] A [2] B [3] C"), ("summarize the third one", "C [1]")]
    history += [("what does it do?", "It does. [1]")] * 1000
    assert len(past_pointed(history)) <= len(history)


def test_another_topic_after_an_aspect_follow_up_is_the_list_s(request: pytest.FixtureRequest) -> None:
    """A run: after a list and "what about the proposed method?", "what about federated
    learning?" had been joined to both (a table of one paper on the old topic)."""
    store: Assistant = request.getfixturevalue("years_store")
    history = chat(store, LIST, "what about the limitations?")
    answer = final_answer(store.answer_stream("what about sparse attention?", history))
    assert [c.title for c in answer.citations] == ["Sparse Attention"], answer.answer
    assert answer.answer.startswith("1 paper of the")  # a list's count line
    # past two such follow-ups too (a second review)
    history = chat(store, LIST, "what about the limitations?", "what datasets do they use?")
    again = final_answer(store.answer_stream("what about sparse attention?", history))
    assert [c.title for c in again.citations] == ["Sparse Attention"], again.answer


def test_a_long_chat_reads_each_earlier_turn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A third review: each "what about X?" read every turn before it again, recursively;
    20 of them took 30 s (2,192,444 reads of the history at 22)."""
    from assistant import follow_ups
    from assistant.intent import read_intent
    from assistant.narrowing import Readers, swapped

    reads = []
    real = follow_ups.narrowed
    monkeypatch.setattr(follow_ups, "narrowed", lambda *a: reads.append(1) or real(*a))
    history = [("What is dropout?", "Dropout drops units. [1]")]
    history += [(f"what about topic number {n}?", "An answer. [1]") for n in range(22)]
    readers = Readers(read_intent, lambda words: True, lambda name: False)
    assert swapped("what about sparsity?", history, readers) is None
    assert len(reads) < 10 * len(history), len(reads)


def test_summarize_an_author_et_al_lists_their_papers(request: pytest.FixtureRequest) -> None:
    """The route of "Summarize Sabour et al." (a run's false "no" among the 13.9k): the
    author's papers listed. The cause, "summar" read as a topic where its stem is rare,
    shows only in a large store; test_lists.py's topic_terms test is the one that fails
    without the fix."""
    store: Assistant = request.getfixturevalue("authors_store")
    answer = final_answer(store.answer_stream("Summarize Sabour et al."))
    assert answer.refusal is None and answer.citations, answer.answer
    assert answer.filters == "author Sabour"


def test_more_recent_ones_after_a_years_list_asks_past_its_years(
        request: pytest.FixtureRequest) -> None:
    """A run: "and more recent ones?" after "only the ones from 2019" listed 2019's papers
    again, newest first; a comparison asks past the list's years, an edge ("the newest
    ones?") stays the list in year order."""
    store: Assistant = request.getfixturevalue("years_store")
    history = chat(store, LIST, "only the ones from 2019")
    newer = final_answer(store.answer_stream("and more recent ones?", history))
    assert newer.filters == "years 2020 on"
    assert [c.title for c in newer.citations] == ["Capsules in Videos"]
    older = final_answer(store.answer_stream("older ones?", history))
    assert older.filters == "years up to 2018"
    assert [c.title for c in older.citations] == ["Capsules for Object Parts"]
    newest = final_answer(store.answer_stream("the newest ones?", history))
    assert {c.year for c in newest.sources} == {2019}
    first = final_answer(store.answer_stream("older ones first", history))  # a review's: an order
    assert first.filters == "year 2019"


def test_it_after_a_paper_named_by_its_title_is_that_paper(request: pytest.FixtureRequest) -> None:
    """A run: after "who wrote dynamic routing between capsules?", "what datasets does it
    use?" was searched with both questions and answered from STAR-Caps; "it" is the paper
    the question before named by its title, unless the follow-up names its own subject."""
    store: Assistant = request.getfixturevalue("authors_store")
    history = chat(store, "who wrote self-routing capsules?")
    for question in ("when was it published?", "does it route parts?"):
        answer = final_answer(store.answer_stream(question, history))
        assert [s.title for s in answer.sources] == ["Self-Routing Capsules"], question
        history.append((question, answer.answer))
    own = final_answer(store.answer_stream("What is sparse attention and how is it used?", history))
    assert "Sparse Attention" in {c.title for c in own.citations}


def test_which_one_after_a_place_asks_of_its_papers(request: pytest.FixtureRequest) -> None:
    """A run: "which one has the best results?" after "summarize the first three" was
    searched anew with the whole chat (other papers); it asks which of those papers."""
    store: Assistant = request.getfixturevalue("years_store")
    history = chat(store, LIST, "summarize the first two")
    listed = final_answer(store.answer_stream(LIST))
    answer = final_answer(store.answer_stream("which one has the best results?", history))
    assert {s.title for s in answer.sources} == {s.title for s in listed.sources[:2]}


def test_how_many_with_no_topic_counts_the_list_before(request: pytest.FixtureRequest) -> None:
    """A run: "how many are there since 2019?" and "how many?" after a list quoted a paper
    on counting species; a count naming no topic is the list before, under its years."""
    store: Assistant = request.getfixturevalue("years_store")
    history = chat(store, LIST)
    since = final_answer(store.answer_stream("how many are there since 2019?", history))
    assert since.answer.startswith("3 papers of the ") and since.filters == "years 2019 on"
    every = final_answer(store.answer_stream("how many?", history))
    assert every.answer.startswith("4 papers of the ")


@pytest.mark.parametrize("question", ["how many of them per year?", "how many such papers per year?",
                                      "show the trend over time", "and per year?"])
def test_per_year_after_a_list_or_count_is_its_trend(request: pytest.FixtureRequest, question: str
                                                     ) -> None:
    """A run's among the 13.9k, after "How many papers use capsule networks?": "how many such
    papers per year?" refused "such" as a topic, "how many of them per year?" listed none
    writing "per year", "show the trend over time" quoted time-series papers."""
    store: Assistant = request.getfixturevalue("years_store")
    for before in (LIST, "How many papers use capsule networks?"):
        answer = final_answer(store.answer_stream(question, chat(store, before)))
        assert answer.answer.startswith("4 papers of the ") and "  2019 " in answer.answer, answer.answer
    with_topic = final_answer(store.answer_stream("how many papers on GANs per year?", chat(store, LIST)))
    assert "capsule" not in with_topic.answer.split("\n")[0]  # a topic of its own: not the list's
    # a list narrowed by a topic is not its whole topic's trend (a review's), nor a list of
    # papers writing "per year" (a run's false "no"): what the narrowing kept, per year
    narrowed = chat(store, LIST, "which of them route by agreement?")
    kept = final_answer(store.answer_stream("which of them route by agreement?", chat(store, LIST)))
    per_year = final_answer(store.answer_stream(question, narrowed))
    assert {c.title for c in per_year.citations} == {c.title for c in kept.citations}
    assert per_year.answer.startswith(f"{len(kept.citations)} papers of the 4 ")
    assert "  2019 " in per_year.answer


def test_which_of_them_after_a_count_keeps_what_it_counted(request: pytest.FixtureRequest) -> None:
    """A run: "which of them use variational inference?" after "How many papers on
    normalizing flows are there?" (71) quoted a paper on variational inference alone."""
    store: Assistant = request.getfixturevalue("years_store")
    history = chat(store, "How many papers use capsule networks?")
    which = final_answer(store.answer_stream("which of them route by agreement?", history))
    assert "the earlier list gave" in which.answer
    assert {c.title for c in which.citations} <= {title for _, title, _ in CAPSULES_ROWS}


def test_their_other_papers_after_a_titled_question_are_its_authors(
        request: pytest.FixtureRequest) -> None:
    """A run: "what other papers did they write?" after "who wrote Glow: …?" listed papers
    writing "write" (handwriting, "Write, Execute, Assess"); it asks for the authors' papers."""
    store: Assistant = request.getfixturevalue("authors_store")
    history = chat(store, "who wrote self-routing capsules?")
    theirs = final_answer(store.answer_stream("what other papers did they write?", history))
    assert theirs.filters == "author Sara Sabour or Geoffrey Hinton"
    assert "Self-Routing Capsules" in {c.title for c in theirs.citations}
    assert "Capsules in Videos" not in {c.title for c in theirs.citations}  # Ann Lee's
    # reviews: "they" keeps the question's year or topic, and asks nothing else of them
    assert [their_papers(q) for q in (
        "Thanks! What other papers did they write?", "Did they write anything else?",
        "What else did they publish in 2019?", "Did they also publish on capsule autoencoders?",
        "What datasets were used by them?", "Did they publish their code?",
        "What did they write in the conclusion?", "What do they write about the baseline?",
        "Did they write about GANs?", "What did they publish in NeurIPS?")] == [  # a sixth review
        "", "", "in 2019", "on capsule autoencoders", None, None, None, None, "about GANs", "in NeurIPS"]
    # a seventh review: what this paper writes is no question of their other papers
    for contents in ("What do they write about limitations?", "What did they write in Section 3?",
                     "Did the authors write about future work?", "Do they write about overfitting?",
                     "What do they write about dropout in this paper?",
                     "What did they write about why it works?"):
        assert their_papers(contents) is None, contents
    counted = final_answer(store.answer_stream("How many papers have they written?", history))
    assert counted.answer.startswith("5 papers of the ")  # a review: it had raised
    history.append(("what other papers did they write?", theirs.answer))  # and after it:
    in_2019 = final_answer(store.answer_stream("only the ones from 2019", history))
    assert in_2019.filters == "year 2019, author Sara Sabour or Geoffrey Hinton"


def test_a_narrowed_list_quotes_each_paper_on_the_follow_ups_topic(
        seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A researcher's run: "which of them use reinforcement learning?" after a GAN list kept
    the right papers but quoted each one's sentence on GANs."""
    rows = [("Adversarial Agents", "We train generative adversarial networks on images. A "
             "reinforcement learning agent then tunes the discriminator."),
            ("Plain Adversarial Nets", "We train generative adversarial networks on faces.")]
    app = Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "gan-rl", rows)))
    history = chat(app, "Which papers use generative adversarial networks?")
    narrowed_list = final_answer(app.answer_stream("which of them use reinforcement learning?", history))
    assert [c.title for c in narrowed_list.citations] == ["Adversarial Agents"]
    assert "“A reinforcement learning agent then tunes the discriminator.”" in narrowed_list.answer


@pytest.mark.parametrize("question", ["Which of these use CIFAR-10?", "How many of them are on GANs?",
                                      "Only the ones from 2025, please.", "And which of those?",
                                      # a second review's: an "or" of what they are asked for
                                      "Which of these use CIFAR-10 or ImageNet?",
                                      "How many of them are on GANs or VAEs?"])
def test_choosing_among_the_papers_before_with_none_is_one_line(
        seed_assistant: Assistant, question: str) -> None:
    """A run: with nothing before it, "Which of these use CIFAR-10?" quoted an unrelated paper
    with no caveat, "Only the ones from 2021, please." was a "no"."""
    with pytest.raises(BadInputError, match="earlier list or count, and there is none before it"):
        final_answer(seed_assistant.answer_stream(question))


@pytest.mark.parametrize("question", [
    "Which of these methods predicts temporal links best: CRAFT or a GNN?",
    # a review's: options named after "these" with no noun between
    "Which of these came first, CRAFT or RawMed?",
    "Which of these is more accurate: CRAFT or graph networks?"])
def test_a_first_question_choosing_among_its_own_options_is_answered(
        seed_assistant: Assistant, question: str) -> None:
    answer = final_answer(seed_assistant.answer_stream(question))  # no "earlier list" error
    assert answer.citations or answer.refusal is not None


def test_a_filter_after_a_narrowed_lists_trend_keeps_the_narrowing(request: pytest.FixtureRequest) -> None:
    """A review: after "which of those use differential privacy?" (20) and "how many of them
    per year?", "which of those are from 2021?" listed the 44 federated-learning papers of
    2021, the narrowing's topic dropped, where the table had shown 11."""
    store: Assistant = request.getfixturevalue("years_store")
    narrowed = chat(store, LIST, "which of them route by agreement?", "how many of them per year?")
    kept = {c.title for c in final_answer(store.answer_stream(
        "which of them route by agreement?", chat(store, LIST))).citations}
    of_2019 = final_answer(store.answer_stream("which of those are from 2019?", narrowed))
    titles = {c.title for c in of_2019.citations}
    assert titles and titles <= kept and of_2019.filters == "year 2019", of_2019.answer


@pytest.mark.parametrize("asked", ["which of those are from 2019?", "list the ones from 2019",
                                   "name the ones from 2019", "And which of them are from 2019?"])
def test_which_of_a_count_are_from_a_year_lists_them(request: pytest.FixtureRequest, asked: str) -> None:
    """A review: after a count, "which of those are from 2021?" was answered with a count
    and its table, naming no paper. Asked which, the count's papers of that year are listed;
    asked how many (test_follow_ups), counted."""
    store: Assistant = request.getfixturevalue("years_store")
    count = "How many papers use capsule networks?"
    history = [(count, final_answer(store.answer_stream(count)).answer)]
    answer = final_answer(store.answer_stream(asked, history))
    assert {c.title for c in answer.citations} == {"Stacked Capsule Autoencoders", "Self-Routing Capsules"}
    assert answer.answer.splitlines()[2].startswith("[1] ")  # the papers, not a count's table
    assert "year  papers" not in answer.answer
    assert "Of the 4 papers the earlier count gave, 2 pass this filter (year 2019)." in answer.answer
    # a review (C41): a list shown after the count is "the earlier list"
    listed = chat(store, count, "list them", "only the ones from 2019")[-1][1]
    assert "the earlier list gave" in listed and "the earlier count gave" not in listed


def test_list_them_after_a_narrowed_lists_count_per_year_lists_what_it_counted(
        request: pytest.FixtureRequest) -> None:
    """A run in the UI: "Which papers use capsule networks?", "which of those are from
    2020?", "how many of them per year?" (1 paper), then "list them" listed all 1,898
    papers of 2020: the list counted per year had been taken for a count of no topic."""
    store: Assistant = request.getfixturevalue("years_store")
    history = chat(store, LIST, "which of those are from 2019?", "how many of them per year?")
    listed = final_answer(store.answer_stream("list them", history))
    assert {c.title for c in listed.citations} == {"Stacked Capsule Autoencoders", "Self-Routing Capsules"}


@pytest.mark.parametrize(("fragment", "years", "named"), [
    ("what about 2014 to 2016?", (2014, 2016), None), ("and 2014 through 2016?", (2014, 2016), None),
    ("what about 2014 and 2016?", (2014, 2016), {2014, 2016}), ("what about 2019?", (2019, 2019), None)])
def test_two_years_spanned_in_a_fragment_are_its_range(fragment: str, years: tuple[int, int],
                                                       named: set[int] | None) -> None:
    """A run: "what about 2014 to 2016?" after a count had counted the papers matching
    “2014 to 2016” (1 of 13,872); "to" between two years spans them, as "through" does."""
    said = fragment_filters(fragment, lambda name: False)
    assert said is not None and said.years == years
    assert said.named_years == named  # "2014 and 2016": those two years alone


def test_a_range_after_a_count_comparison_compares_the_counts_again(
        request: pytest.FixtureRequest) -> None:
    """R9: "what about since 2019?" after "Which grew faster, GANs or VAEs?" had listed both
    topics' papers; a range alone compares the counts again under it, as it counts a count
    again, and one asking for papers ("which of those …") still lists them."""
    store: Assistant = request.getfixturevalue("years_store")
    history = chat(store, "Are there more papers on capsule networks or on sparse attention?")
    again = final_answer(store.answer_stream("what about 2019?", history))
    assert again.answer.startswith(
        "More papers on “capsule networks” than on “sparse attention”: 2 against 1.")
    assert again.filters == "year 2019"
    listed = final_answer(store.answer_stream("which of those are from 2019?", history))
    assert "The papers each topic compared counted: 2 on “capsule networks”" in listed.answer
    # C64: after a list of its papers, a range narrows that list (it had compared again)
    later = final_answer(store.answer_stream("what about 2020?", [*history, (
        "which of those are from 2019?", listed.answer)]))
    assert "The papers each topic compared counted: 1 on “capsule networks”" in later.answer


def test_a_range_alone_after_a_list_narrows_it(request: pytest.FixtureRequest) -> None:
    """C64: "since 2019?" alone after a count had been searched as a question of its own,
    and a COVID-19 paper quoted for "2019"; a range stated alone narrows the list before."""
    store: Assistant = request.getfixturevalue("years_store")
    history = chat(store, LIST)
    for asked in ("since 2019?", "in 2019?"):
        narrowed = final_answer(store.answer_stream(asked, history))
        assert narrowed.filters is not None and "2019" in narrowed.filters, asked
        assert narrowed.answer.startswith(("3 papers of the", "2 papers of the")), asked


@pytest.mark.parametrize(("asked", "years", "count"), [
    ("2019?", "2019", "2 papers of the"), ("The 2010s?", "2010", "3 papers of the"),
    ("2018 or 2020?", "2018", "2 papers of the")])
def test_a_bare_range_after_a_list_narrows_it(request: pytest.FixtureRequest, asked: str,
                                              years: str, count: str) -> None:
    """A run: "2019?" or "The 2010s?" alone after a list had been searched as a topic
    (a table of one paper, or a refusal); a year or span asked bare narrows the list
    ("2019" with no question mark stays a lookup: test_follow_ups)."""
    store: Assistant = request.getfixturevalue("years_store")
    narrowed = final_answer(store.answer_stream(asked, chat(store, LIST)))
    assert narrowed.filters is not None and years in narrowed.filters, asked
    assert narrowed.answer.startswith(count), asked


def test_a_bare_year_narrows_only_a_list_and_alone(request: pytest.FixtureRequest) -> None:
    """C67: "2017?" after "When was the Transformer introduced?" asks whether it was, and had
    answered "No paper of the 679 (year 2017) answers …"; "2019? 2020?" had kept 2019."""
    readers = readers_of(request.getfixturevalue("years_store"))
    assert narrowed("2019?", [(LIST, "")], readers) is not None
    assert narrowed("2018?", [("What do capsule networks route?", "Parts to wholes.")], readers) is None
    assert narrowed("2019? 2020?", [(LIST, "")], readers) is None


def test_a_topic_named_with_the_is_asked_under_the_filters_before(request: pytest.FixtureRequest) -> None:
    """R12: "what about the Chinese restaurant process?" after a list narrowed to Zoubin
    Ghahramani's papers had been read as asking of the list's aspects ("the …") and
    refused as off topic, or answered with a table. A name after "the" is the list asked of
    that topic under the filter, and a list of none says how many papers outside the filter
    write it; a lower-case noun asks of the list (C68: "the top 5", "the sample size")."""
    store: Assistant = request.getfixturevalue("authors_store")
    history = chat(store, LIST, "only the ones by Ann Lee")
    other = final_answer(store.answer_stream("what about the Monte Carlo tree search?", history))
    assert other.answer.startswith("No paper of the 1 (author Ann Lee) answers “the Monte Carlo tree search”")
    assert ("1 stored paper outside the filter (author Ann Lee) writes “the Monte Carlo tree search”; "
            "ask without it to list it.") in other.answer  # AB-MCTS, a seed
    # the topic as papers write it, not with the question's verb (C68: “use neural networks …”)
    used = final_answer(store.answer_stream("Which papers by Ann Lee use Monte Carlo tree search?"))
    assert "outside the filter (author Ann Lee) writes “Monte Carlo tree search”" in used.answer
    for aspect in ("what about the datasets?", "what about the top 5?",  # the list's (C68, C69)
                   "what about the sample size?", "what about the same for VAEs?",
                   "what about the Top 5?", "what about the NeurIPS 2019 ones?"):
        assert swapped(aspect, history, readers_of(store)) is None, aspect
