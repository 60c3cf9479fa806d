"""The learned ranker: its training finds the signal, its features read what they claim, the
shipped weights fit the code, and the calibrated abstention refuses on weak evidence."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from conftest import FILE_A, make_settings

from assistant.index import ChunkHit
from assistant.keywords import KeywordStats, keyword_weights
from assistant.pipeline import Assistant
from assistant.ranking import (
    FEATURES,
    WEIGHTS_FILE,
    Neighbourhood,
    candidate_features,
    load_ranker,
    rare_terms,
    read_coverage,
    train,
)
from assistant.refusals import FULL_MATCH
from assistant.settings import PROJECT_ROOT
from assistant.tuning import LEADING_WORDS, NEAREST, NEAREST_CHUNKS
from assistant.types import Filters

# a question none of the 38 seeds is about, for the off-topic check
FAR_FROM_THE_SEEDS = "How can a hospital detect that recorded patient entries no longer reflect the truth?"


def test_training_weighs_the_signal_that_marks_the_right_candidate() -> None:
    rng = np.random.default_rng(0)
    signal = FEATURES.index("coverage")
    groups = []
    for _ in range(200):
        x = rng.normal(size=(12, len(FEATURES)))
        positive = int(rng.integers(12))
        x[positive, signal] += 4.0  # the right paper holds more of the question's keywords
        groups.append((x, positive))
    ranker = train(groups[:150])
    assert int(np.argmax(ranker.weights)) == signal
    held = [int(np.argmax(x @ ranker.weights)) == positive for x, positive in groups[150:]]
    assert sum(held) / len(held) > 0.8


def test_features_read_coverage_and_rare_terms() -> None:
    stats = KeywordStats(n_docs=100, vocab={"wombat": 0, "model": 1}, df=np.array([1, 60]))
    texts = {"a": "A wombat model.", "b": "A model."}
    found = candidate_features("wombat model", ["a", "b"], {"a": 3.0, "b": 1.0},
                               {"a": 0.5, "b": 0.4}, texts, stats)
    column = {name: found.features[:, i] for i, name in enumerate(FEATURES)}
    assert list(column["rare"]) == [1.0, 0.0]
    assert column["coverage"][0] == 1.0 > column["coverage"][1] > 0.0
    assert list(column["bm25_rel"]) == [1.0, pytest.approx(1 / 3)]
    assert column["dense_gap"][0] == 0.0 > column["dense_gap"][1]


def test_coverage_reads_a_full_paper_as_far_as_an_abstract_goes_and_rare_words_anywhere() -> None:
    """A whole paper stored as an abstract holds nearly every common word somewhere: coverage
    counts those only in its first LEADING_WORDS words, as an abstract's would; a rare word of
    the question counts wherever it is ("Which paper discusses tachometer?")."""
    stats = KeywordStats(n_docs=100, vocab={"wombat": 0, "model": 1}, df=np.array([1, 60]))

    def filler(n: int) -> str:
        return " ".join(["padding"] * n)

    texts = {"abstract": "A wombat model.",
             "within": f"{filler(LEADING_WORDS - 3)} A wombat model.",  # the last 3 words
             "late": f"{filler(LEADING_WORDS)} A wombat model.",
             "common late": f"{filler(LEADING_WORDS)} A model."}
    found = candidate_features("wombat model", list(texts), {}, {}, texts, stats)
    column = {name: dict(zip(texts, found.features[:, i], strict=True))
              for i, name in enumerate(FEATURES)}
    coverage = column["coverage"]
    assert coverage["abstract"] == coverage["within"] == 1.0
    assert 0.0 < coverage["late"] < 1.0 and coverage["common late"] == 0.0
    assert [column["rare"][k] for k in texts] == [1.0, 1.0, 1.0, 0.0]


def test_the_relevance_floor_reads_a_full_paper_as_far_as_an_abstract_goes(
        fresh_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The floor's coverage, and with it the "first paper holds every keyword" exemption from
    abstention, reads a whole paper as the ranker's feature does (the question's common words
    only in its first LEADING_WORDS words, a rare word anywhere), and its title whole."""
    title = "Language notes on wombat burrows"
    opening = "Wombats dig deep burrows at night. " * (LEADING_WORDS // 6 + 1)
    text = opening + "Models learn from data on quagga stripes."
    path = tmp_path / "full-paper.csv"
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["title", "authors", "year", "link", "abstract"])
        writer.writeheader()
        writer.writerow({"title": title, "authors": "A. Keeper", "year": "2020", "link": "",
                         "abstract": text})
    app = Assistant(make_settings(fresh_copy))
    app.ingest([path])
    stats = app.index.keyword_stats()

    def coverage(question: str) -> float:
        found = app.retriever.retrieve(question, top_k=50, apply_floor=False)
        return {r.paper.title: r.coverage for r in found}[title]

    def ranker_coverage(question: str) -> float:
        found = candidate_features(question, ["p"], {}, {}, {"p": text}, stats)
        return float(found.features[0, FEATURES.index("coverage")])

    for question in ("How do models learn from data?", "quagga stripes", "wombat data"):
        assert coverage(question) == pytest.approx(ranker_coverage(question), abs=1e-4)
    assert coverage("How do models learn from data?") == 0.0  # 1.0 over the whole text
    assert coverage("quagga stripes") >= FULL_MATCH  # rare words count anywhere
    assert coverage("language wombat") >= FULL_MATCH  # "language" is in the title alone
    # Only the exemption can answer at an unreachable threshold: it holds for the paper's
    # rare words, not for the common ones it has only past word LEADING_WORDS.
    strict = dataclasses.replace(load_ranker(), abstain_below=1e9)
    monkeypatch.setattr("assistant.refusals.load_ranker", lambda: strict)
    assert app.retrieve("quagga stripes")[0].paper.title == title
    assert app.retrieve("wombat models data") == []


def test_shipped_weights_fit_the_features_and_were_not_trained_on_the_eval() -> None:
    ranker = load_ranker()
    data = json.loads((PROJECT_ROOT / "assistant" / WEIGHTS_FILE).read_text())
    assert data["features"] == list(FEATURES) and len(ranker.weights) == len(FEATURES)
    assert ranker.abstain_below is not None
    assert "title→abstract pairs" in data["trained_on"]


def test_weak_evidence_is_refused_unless_the_paper_holds_every_keyword(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    question = FAR_FROM_THE_SEEDS
    assert seed_assistant.retrieve(question)  # answered at the shipped threshold
    strict = dataclasses.replace(load_ranker(), abstain_below=1e9)
    monkeypatch.setattr("assistant.refusals.load_ranker", lambda: strict)
    assert seed_assistant.retrieve(question) == []
    refusal = seed_assistant.retriever.find(question).refusal
    assert refusal is not None and refusal.check == "evidence"
    assert seed_assistant.retrieve("What is CRAFT?")  # a bare name its abstract spells out


def test_a_large_store_refuses_a_question_with_no_neighbourhood(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """The off-topic check (``ranking.Neighbourhood``) refuses a question whose nearest papers
    are all far off, but only in a store large enough and embedded with the model it was
    calibrated with; a question naming a paper's method is exempt."""
    question = FAR_FROM_THE_SEEDS
    model = seed_assistant.settings.index.embed_model
    shipped = load_ranker()
    assert shipped.neighbourhood is not None and shipped.neighbourhood.model == model
    assert seed_assistant.index.chunk_count() < shipped.neighbourhood.min_chunks
    assert seed_assistant.retrieve(question)  # the seeds are too few for the check

    def use(check: Neighbourhood) -> None:
        monkeypatch.setattr("assistant.refusals.load_ranker",
                            lambda: dataclasses.replace(shipped, neighbourhood=check))

    use(Neighbourhood(below=0.99, min_chunks=1, model=model))
    assert seed_assistant.retrieve(question) == []
    refusal = seed_assistant.retriever.find(question).refusal
    assert refusal is not None and refusal.check == "off_topic"
    # a filter measures nothing new: the neighbourhood is the whole store's
    years = Filters(years=(1900, 2100))
    assert seed_assistant.retrieve(question, filters=years) == []
    assert seed_assistant.retrieve("What is CRAFT?")  # named: exempt
    monkeypatch.setattr(seed_assistant.retriever.settings, "candidates", 5)  # fewer than NEAREST
    assert seed_assistant.retrieve(question) == []
    use(Neighbourhood(below=0.99, min_chunks=1, model="openai:another-model"))
    assert seed_assistant.retrieve(question)  # calibrated cosines mean nothing for it
    use(Neighbourhood(below=0.0, min_chunks=1, model=model))
    assert seed_assistant.retrieve(question)


def test_the_neighbourhood_counts_each_paper_once(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole paper stored as many chunks near the question does not fill the neighbourhood
    alone: its mean cosine reads the NEAREST papers, each by its best chunk ("Explain the
    rules of cricket" was near one full paper on the cricket's ear, chunk after chunk)."""
    question = FAR_FROM_THE_SEEDS
    index = seed_assistant.index
    _, nearest, _ = seed_assistant.retriever.abstention_signals(question)
    search = index.search_dense

    def one_paper_repeated(*args: object, **kwargs: object) -> list[ChunkHit]:
        hits = search(*args, **kwargs)  # type: ignore[arg-type]
        first = hits[0]  # the best paper again, as chunks of its own
        return [dataclasses.replace(first, chunk_id=f"{first.paper_id}:{100 + n}")
                for n in range(NEAREST)] + hits

    monkeypatch.setattr(index, "search_dense", one_paper_repeated)
    _, repeated, _ = seed_assistant.retriever.abstention_signals(question)
    assert nearest is not None and repeated == pytest.approx(nearest)


def test_the_neighbourhood_searches_further_when_few_papers_fill_the_nearest_chunks(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the nearest chunks hold fewer than NEAREST papers (a store of whole papers), the
    store is searched further instead of the off-topic check being skipped."""
    question = FAR_FROM_THE_SEEDS
    index = seed_assistant.index
    _, nearest, _ = seed_assistant.retriever.abstention_signals(question)
    search = index.search_dense

    def crowded(query: str, k: int, *args: object, **kwargs: object) -> list[ChunkHit]:
        hits = search(query, k, *args, **kwargs)  # type: ignore[arg-type]
        if k >= 10 * NEAREST_CHUNKS:
            return hits
        few = list({h.paper_id: h for h in hits}.values())[:NEAREST - 1]
        return [dataclasses.replace(hit, chunk_id=f"{hit.paper_id}:{n}")
                for n, hit in ((n, few[n % len(few)]) for n in range(k))]

    monkeypatch.setattr(index, "search_dense", crowded)
    _, searched, _ = seed_assistant.retriever.abstention_signals(question)
    assert nearest is not None and searched == pytest.approx(nearest)


def test_query_terms_are_the_bm25_tokenizers_terms() -> None:
    """``document_terms`` (the ranker's and coverage's tokenizer, rewritten for speed) gives
    exactly the terms, in the order of first use, that bm25s's tokenizer gives the index
    (``query_terms`` the same for a text without hyphens):
    on every seed abstract and on text with digits, accents, hyphens, stopwords and case."""
    from assistant.corpus import read_paths
    from assistant.keywords import document_terms, query_terms, tokenize

    texts = [p.text for p in read_paths([PROJECT_ROOT / "seeds"]).papers]
    texts += ["", "a I x", "The GPT-4o model's 2nd-order U-Net naïve Café ÉCOLE résumé",
              "What does this paper propose about LoRA and low-rank adaptation, 10x faster?",
              "studies studied studying 3D x86_64 foo_bar"]
    for text in texts:
        tokens = tokenize([text])
        inverse = {i: t for t, i in tokens.vocab.items()}
        assert document_terms(text) == list(dict.fromkeys(inverse[i] for i in tokens.ids[0])), text
        if "-" not in text:
            assert query_terms(text) == document_terms(text), text


def test_an_acronym_asked_in_the_singular_finds_the_abstracts_that_write_its_plural(
        seed_assistant: Assistant) -> None:
    """Porter keeps the "s" of "LLMs" (no vowel before it), so "LLM" in a question matched
    no abstract that writes "large language models (LLMs)": AB-MCTS's abstract (seed 12)
    was not among 13.9k papers' candidates for "scaling test-time compute for LLM reasoning".
    Acronym plurals (capitals and a small "s") fold into the acronym, in BM25 and in coverage
    alike; a singular acronym ending in S (RLS, GPS, MCTS), a unit (10ms) and a word keep
    their own terms (a review found the first rule, any word with no vowel before its "s",
    had made recursive least squares "RL")."""
    from assistant.keywords import document_terms, query_terms, tokenize

    assert query_terms("LLMs GNNs SVMs GPs MDPs") == query_terms("LLM GNN SVM GP MDP")
    assert query_terms("RLS GPS MCTS 10ms NPS") == ["rls", "gps", "mcts", "10ms", "nps"]
    assert not set(query_terms("RL GP MCT 10m NP")) & set(query_terms("RLS GPS MCTS 10ms NPS"))
    assert query_terms("class process gas steps") == ["class", "process", "gas", "step"]
    tokens = tokenize(["LLMs-based LLMs"])
    assert set(tokens.vocab) == set(document_terms("LLM-based LLM")) == {"llm", "base", "llmbase"}
    papers = seed_assistant.index.papers()
    ab_mcts = next(pid for pid, p in papers.items() if p.source == f"{FILE_A}#12")
    assert "LLM " not in papers[ab_mcts].text and "LLMs" in papers[ab_mcts].text
    assert seed_assistant.index.bm25_paper_scores("LLM").get(ab_mcts, 0.0) > 0.0
    stats = seed_assistant.index.keyword_stats()
    weights = keyword_weights("LLM", stats)
    assert read_coverage(weights, rare_terms(weights, stats), papers[ab_mcts].text)[0] == 1.0


def test_a_joined_spelling_finds_the_abstracts_that_hyphenate_it(
        seed_assistant: Assistant) -> None:
    """Stored texts are indexed under a hyphenated word's parts and its joined spelling, so
    "finetuning" finds an abstract that writes "fine-tuning" (901 words of the 1987-2021
    abstracts are written both ways); a question is read as written: its "fine-tuning" asks
    for "fine" and "tune", not for a joined term most abstracts would lack."""
    from assistant.keywords import document_terms, query_terms

    assert query_terms("fine-tuning") == ["fine", "tune"]
    assert document_terms("fine-tuning") == ["fine", "tune", "finetun"]
    assert query_terms("finetuning") == ["finetun"]
    papers = seed_assistant.index.papers()
    lora = next(pid for pid, p in papers.items() if p.source == f"{FILE_A}#6")
    assert "fine-tuning" in papers[lora].text and "finetuning" not in papers[lora].text.lower()
    assert seed_assistant.index.bm25_paper_scores("finetuning").get(lora, 0.0) > 0.0
    stats = seed_assistant.index.keyword_stats()
    weights = keyword_weights("finetuning", stats)
    assert read_coverage(weights, rare_terms(weights, stats), papers[lora].text)[0] == 1.0


def test_the_tokenizer_version_names_the_tokenizer() -> None:
    """A saved BM25 copy is rebuilt only when TOKENIZER_VERSION differs from the one it was
    saved with: a change to how texts are tokenized must change the version too, or every
    store keeps an index its questions no longer match. Change one, change the other."""
    from assistant.keywords import TOKENIZER_VERSION, document_terms, query_terms

    sample = ("LLMs fine-tuning on-line back-propagation RLS 10ms studies of the GPs' behaviour"
              " with $\\ell_1$ penalties, Nyström, i.i.d., R\\'enyi")
    assert (TOKENIZER_VERSION, document_terms(sample), query_terms(sample)) == (
        "porter-english-stop143-acronym-plurals2-compounds2-american2-norms-plain-dotted-tex-accents",
        ["llm", "fine", "tune", "finetun", "line", "onlin", "back", "propag", "backpropag",
         "rls", "10ms", "gp", "behavior", "l1", "penalti", "nystrom", "iid", "renyi"],
        ["llm", "fine", "tune", "line", "back", "propag", "rls", "10ms", "gp", "behavior", "l1",
         "penalti", "nystrom", "iid", "renyi"])


def test_a_norm_written_in_latex_is_the_norm_a_researcher_types() -> None:
    """"L1" in a question finds "$\\ell_1$-regularized", "ℓ1" and "$L_{1}$" (the tokenizer read
    "ell_1" and "l_1": 123 of the 1987-2021 abstracts held l1 or l2 as a term, 309 now);
    an index that is not a norm's ("L_{ij}", "\\ell_\\infty") is left as it was."""
    from assistant.keywords import query_terms

    for written in ("$\\ell_1$-regularized", "ℓ1 regularized", "$L_{1}$ regularized",
                    "l_1-regularized"):
        assert query_terms(written)[:2] == query_terms("L1 regularized"), written
    assert query_terms("$\\ell_p$ and $\\ell_2$") == ["lp", "l2"]
    assert query_terms("L_{ij}") == ["l_", "ij"] and query_terms("\\ell_\\infty") == ["ell_", "infti"]


def test_a_british_spelling_finds_the_american_one(seed_assistant: Assistant) -> None:
    """Questions and abstracts are read in American spelling ("optimisation" and
    "optimization" were two terms to Porter, and "analyse" missed the 698 abstracts of the
    1987-2021 corpus that write "analyze"), for the roots American abstracts write with a
    "z" only: a first rule that read every "-ise" as "-ize" split "supervised" from
    "supervision" and merged "expertise" with "expert" (a review)."""
    from assistant.keywords import query_terms

    british = "optimisation behaviour neighbourhoods analyse centre defence programme judgements"
    american = "optimization behavior neighborhoods analyze center defense program judgments"
    assert query_terms(british) == query_terms(american)
    assert query_terms("rise wise noise Ising analysis") == ["rise", "wise", "nois", "ise",
                                                              "analysi"]
    assert len(set(query_terms("supervised supervision unsupervised"))) == 2  # supervis, unsupervis
    assert query_terms("expertise") != query_terms("expert")
    assert query_terms("improvisation") != query_terms("improve")
    papers = seed_assistant.index.papers()
    lora = next(pid for pid, p in papers.items() if p.source == f"{FILE_A}#6")
    assert "optimization" in papers[lora].text.lower()
    assert "optimisation" not in papers[lora].text.lower()
    assert seed_assistant.index.bm25_paper_scores("optimisation").get(lora, 0.0) > 0.0



def test_a_list_topic_is_searched_in_american_spelling(seed_assistant: Assistant) -> None:
    """"Which papers use normalising flows?" listed 58 papers of the 13.9k, "…normalizing
    flows?" 63: the terms were the same, but the dense search and the cross-encoder read the
    British word. The searched topic is written as the field mostly writes it."""
    from assistant.american import in_american
    from assistant.listing import ListScreen

    assert in_american("Optimisation of LSTMs: analyse behaviour, supervised") == (
        "Optimization of LSTMs: analyze behavior, supervised")
    screen = ListScreen(seed_assistant.index)
    assert screen.searched_topic("Which papers use normalising flows?") == (
        screen.searched_topic("Which papers use normalizing flows?"))


def test_a_hyphenated_question_finds_the_abstracts_that_join_the_word(
        seed_assistant: Assistant) -> None:
    """BM25 scores a paper by the better of a question's two readings, as written and with its
    hyphenated words joined: "on-line" finds the pricing abstract that writes "online" (a
    question's hyphenated word had found the joined spelling in 35% of a bench's short
    questions, against 81% the other way round)."""
    from assistant.keywords import query_readings, query_terms

    assert query_readings("on-line pricing") == [["line", "price"], ["onlin", "price"]]
    assert query_readings("online pricing") == [["onlin", "price"]]
    assert query_readings("0-1 loss at t-1") == [["loss"]]  # a range is no word to join
    papers = seed_assistant.index.papers()
    pricing = next(pid for pid, p in papers.items() if p.source == f"{FILE_A}#16")
    assert "online" in papers[pricing].text and "line" not in query_terms(papers[pricing].text)
    assert seed_assistant.index.bm25_paper_scores("on-line").get(pricing, 0.0) > 0.0


def test_a_refusals_nearest_papers_carry_their_real_similarity(seed_dir: Path) -> None:
    """A nearest paper BM25 found but the dense search did not return (few dense candidates
    here, as in a large store) had "similarity 0.00" in its reason; now its cosine is read
    from the stored vectors, the same as a dense hit's."""
    settings = make_settings(seed_dir)
    settings.retrieval.candidates = 5  # the dense search returns 5 of the 38 papers
    app = Assistant(settings)
    question = "What does the Zorblax loss achieve on ImageNet?"
    found = app.retriever.find(question)
    assert found.refusal is not None and len(found.nearest) == 3
    dense_hits = app.retriever.candidates.rank(question, "hybrid").dense
    assert any(f.paper.paper_id not in dense_hits for f, _ in found.nearest)  # the case
    vector = app.index.query_vector(question)
    for near, reason in found.nearest:
        cosine = app.index.paper_cosines(vector, [near.paper.paper_id])[near.paper.paper_id]
        assert cosine > 0.1 and near.dense == pytest.approx(cosine, abs=1e-3)
        assert f"(similarity {cosine:.2f}, " in reason
