"""The Chinese glossary (evfind/data/glossary_zh.tsv) covers the taxonomy: every cue of routes.tsv
and lexicon.tsv, every section label (sections.tsv, form_items.tsv) and every exhibit kind
(exhibits.tsv) has a Chinese entry an analyst would write for it; the general vocabulary of
questions about filings reads as English content words; and longest-match-first segmentation
keeps the short words the long entries contain."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from evfind import zh
from evfind.text import tokens
from evfind._data import rows
from evfind.question import ParsedQuestion, cue_key, lexicon, parse, route_table
from evfind.structure import STATEMENTS
from evfind.text import stems

# Cues of routes.tsv and lexicon.tsv that need no Chinese entry, each with the reason (e.g. a
# rule number a Chinese question writes in Latin letters and digits, which are kept as English
# words). Keep it short: a cue listed here that a Chinese entry reads as fails the test below.
# (A verb and its noun, which Porter's stemmer keeps apart, are no cues: data/derivations.tsv folds
# them, and Chinese writes one word for both, read as the noun.)
# Today every cue has an entry.
NEEDS_NO_CHINESE: dict[str, str] = {
    "g&a": "an English abbreviation: a Chinese question writes G&A as it is, or 管理费用, which reads as its expansion",
}


@lru_cache(maxsize=1)
def entries() -> tuple[zh.Entry, ...]:
    """Every glossary entry once, in the file's order."""
    return tuple({id(entry): entry for entry in zh.glossary().values()}.values())


@lru_cache(maxsize=1)
def readings() -> tuple[tuple[zh.Entry, ParsedQuestion], ...]:
    """Each entry with the parse of its Chinese term, read as a Chinese question."""
    return tuple((entry, parse(entry.chinese)) for entry in entries())


def _labels(key: tuple[str, ...]) -> frozenset[str]:
    return frozenset(label for labels, _ in route_table().get(key, ()) for label in labels)


def _inside(short: str, long: str) -> bool:
    a, b = cue_key(short), cue_key(long)
    return any(b[i : i + len(a)] == a for i in range(len(b) - len(a) + 1))


def _synonyms(cue: tuple[str, ...], read: tuple[str, ...]) -> bool:
    """Does the taxonomy treat the cue ``read`` (a cue a Chinese entry reads as) as ``cue``? A
    cue without expansions: ``read`` has the same section labels (statement of income = income
    statement, buyback = share repurchase). A cue with expansions: ``read`` goes at least where
    it goes, and one names the other or they share an expansion (capex = capital expenditure,
    fixed asset = property plant and equipment). A Chinese analyst writes one term for both."""
    labels, theirs_labels = _labels(cue), _labels(read)
    mine, theirs = set(lexicon().get(cue, ())), set(lexicon().get(read, ()))
    if not mine:
        return bool(labels) and labels == theirs_labels
    return labels <= theirs_labels and (
        any(_inside(" ".join(read), p) for p in mine)
        or any(_inside(" ".join(cue), p) for p in theirs)
        or bool(mine & theirs)
    )


def taxonomy_cues() -> dict[tuple[str, ...], str]:
    """Every cue of routes.tsv and lexicon.tsv: its key -> the cue as written."""
    cues: dict[tuple[str, ...], str] = {}
    for cue, *_ in rows("routes.tsv", 3) + rows("lexicon.tsv", 3):
        cues.setdefault(cue_key(cue), cue)
    return cues


def cues_lacking_chinese() -> list[str]:
    """The taxonomy's cues no Chinese entry reads as: neither the cue itself (folded:
    repurchased = repurchase) nor a synonym of it (``_synonyms``)."""
    read = {tuple(c.split()) for _, parsed in readings() for c in parsed.cues}
    folded = {stems(" ".join(key)) for key in read}
    return [
        cue
        for key, cue in taxonomy_cues().items()
        if stems(" ".join(key)) not in folded and not any(_synonyms(key, r) for r in read)
    ]


def test_every_taxonomy_cue_has_a_chinese_entry():
    missing = [cue for cue in cues_lacking_chinese() if cue not in NEEDS_NO_CHINESE]
    assert missing == []


def test_the_allow_list_names_only_cues_without_an_entry():
    assert set(NEEDS_NO_CHINESE) <= set(cues_lacking_chinese())
    assert set(NEEDS_NO_CHINESE) <= set(taxonomy_cues().values())
    assert all(reason.strip() for reason in NEEDS_NO_CHINESE.values())


def _heading_patterns() -> dict[str, list[tuple[str, str]]]:
    """Section label -> (kind, pattern) of every row naming it in sections.tsv and form_items.tsv."""
    patterns: dict[str, list[tuple[str, str]]] = {}
    for kind, label, pattern in rows("sections.tsv", 3):
        patterns.setdefault(label, []).append((kind, pattern))
    for _form, _part, _item, label, title, _source in rows("form_items.tsv", 5, source=True):
        patterns.setdefault(label, []).append(("item", title))
    return patterns


def _names(wording: str, kind: str, pattern: str) -> bool:
    """Would ``wording``, printed as a heading, be read as the section of this pattern?"""
    if kind == "statement":
        return re.search(pattern, re.sub("[^a-z]", "", wording.lower())) is not None
    return re.search(pattern, " ".join(re.findall("[a-z]+", wording.lower()))) is not None


def test_every_section_label_has_a_chinese_entry():
    """A Chinese entry routes to each label, or its English is the section's title (Item 16,
    "Form 10-K Summary", is found by its heading, not by a route)."""
    routed = {label for _, parsed in readings() for label in parsed.routes}
    wordings = [w for entry in entries() for w in entry.english]
    missing = [
        label
        for label, patterns in _heading_patterns().items()
        if label not in routed and not any(_names(w, k, p) for w in wordings for k, p in patterns)
    ]
    assert missing == []
    assert set(STATEMENTS) <= routed


def _contains(wording: str, phrase: str) -> bool:
    """Does the wording hold the phrase, word for word (folded: units = unit)?"""
    return f" {' '.join(stems(phrase))} " in f" {' '.join(stems(wording))} "


def test_every_exhibit_kind_has_a_chinese_entry():
    """An entry's English names the kind (underwriting agreement), fits one of its title
    patterns, or names what its Item 601 source says it is (charter: articles of incorporation;
    ratio_computation: "statements re computation of ratios" holds "computation of ratios")."""
    patterns: dict[str, list[str]] = {}
    said: dict[str, list[str]] = {}
    for _number, kind, pattern, source in rows("exhibits.tsv", 3, source=True):
        patterns.setdefault(kind, []).extend([pattern] if pattern else [])
        what = re.search(r"\(([^()]*)\)$", source.strip())  # "... (articles of incorporation)"
        head = re.split("[,:]", what.group(1))[0] if what else ""  # "(plan of acquisition, ...)"
        said.setdefault(kind, [kind.replace("_", " ")]).extend([head] if head else [])
    wordings = [" ".join(re.findall("[a-z0-9]+", w.lower())) for entry in entries() for w in entry.english]

    def named(kind: str) -> bool:
        return any(
            any(_contains(w, phrase) or (len(w.split()) > 2 and _contains(phrase, w)) for phrase in said[kind])
            or any(re.search(p, w) for p in patterns[kind])
            for w in wordings
        )

    assert [kind for kind in said if not named(kind)] == []


# --- Forms that can match, and their usual variants ----------------------------------------------


def test_every_form_is_chinese_characters_only():
    """A question is cut into Chinese and other runs before the glossary is consulted, so a form
    holding Latin letters or digits (非GAAP, 10b5-1计划) could never match: its Chinese part is an
    entry of its own (非 non, 计划 plans) and the rest is kept as English words."""
    han = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
    assert [form for form in zh.vocabulary()[0] if not han.fullmatch(form)] == []


def test_a_form_with_de_reads_as_the_form_without_it():
    """的 is a stopword, and an analyst writes 归属于母公司的净利润 and 归属于母公司净利润 alike:
    each form with 的 reads as its form without, unless that is another entry's form (回购股份,
    to repurchase shares, is not 回购的股份, the shares repurchased)."""
    glossary = zh.glossary()
    for form, entry in glossary.items():
        bare = form.replace("的", "")
        if form != bare and bare not in glossary:
            # the same words, whether read as one term or as two ("unresolved; staff comments")
            assert tokens(zh.read(bare).english) == tokens(zh.read(form).english), (form, bare)
    assert glossary["回购股份"] != glossary["回购的股份"]


@pytest.mark.parametrize(
    "forms",
    [
        ("股利", "股息", "分红"),
        ("回购", "股份购回", "股票回购"),
        ("少数股东权益", "非控制性权益", "非控股权益"),
        ("修订", "修改", "修正"),
        ("和解", "和解协议"),
        ("终止费", "解约费", "分手费"),
        ("看跌期权", "认沽期权"),
        ("看涨期权", "认购期权"),
        ("合资企业", "合营企业", "合资公司"),
        ("证券交易法", "交易法"),
        ("多数票", "多数投票", "过半数票"),
        ("无竞争选举", "无竞争的选举", "非竞争性选举"),
        ("未解决的员工意见", "未解决员工意见"),
        ("实际利率", "有效利率"),
        ("欧元计价", "以欧元计价"),
        ("上年同期", "上一年同期"),
        ("前三季度", "前三个季度"),
        ("固定汇率", "不变汇率"),
        ("归属于母公司的净利润", "归属于母公司净利润"),
    ],
)
def test_usual_variants_read_alike(forms):
    readings = {zh.read(form).english for form in forms}
    assert len(readings) == 1, readings
    assert all(zh.read(form).unknown == () for form in forms)


# --- The general vocabulary of questions about filings ---------------------------------------------


@pytest.mark.parametrize(
    "chinese, english",
    [
        # events
        ("发行", "issuance"), ("修订", "amendment"), ("终止", "termination"), ("终止费", "termination fee"),
        ("计提", "accrual"), ("和解", "settlement"), ("贡献", "contribution"), ("提名", "nomination"),
        ("任命", "appointed"), ("辞职", "resignation"), ("修订并重述", "amended and restated"),
        # instruments and terms
        ("票据", "notes"), ("优先票据", "senior notes"), ("欧元计价", "euro denominated"),
        ("实际利率", "effective interest rate"), ("票面利率", "coupon / interest rate"), ("看跌期权", "put option"),
        ("看涨期权", "call option"), ("合资企业", "joint venture"), ("非控制性权益", "noncontrolling interests"),
        ("信函协议", "letter agreement"), ("银团贷款", "syndicated"), ("条款", "terms / provisions"),
        ("附件", "exhibits"), ("合同义务", "contractual obligations"), ("食品杂货", "grocery"),
        # periods
        ("季度", "quarter / quarterly"), ("半年", "six months"), ("上年同期", "prior year period"),
        ("前三季度", "nine months"),
        # measures
        ("核心", "core"), ("非公认会计准则", "non gaap"), ("调整后", "adjusted"), ("固定汇率", "constant currency"),
        ("有机", "organic"),
        # governance
        ("多数票", "majority vote"), ("无竞争选举", "uncontested election"), ("代理访问", "proxy access"),
        ("留任", "holdover"), ("未解决的员工意见", "unresolved staff comments"),
        # legal
        ("交易法", "exchange act"), ("证券法", "securities act"), ("伊朗", "iran"),
        # derivatives (ASC 815-10-50), gross carrying amounts, places of the properties
        ("名义金额", "notional amounts"), ("未到期", "outstanding"), ("原值", "gross"),
        ("德克萨斯州", "texas"), ("加州", "california"), ("北卡罗来纳州", "north carolina"),
        ("零息", "zero coupon"), ("净预订额", "net bookings"), ("反向终止费", "reverse termination fee"),
        ("比特币", "bitcoin"), ("阿片类药物", "opioid"),
        ("在产品", "work in process"), ("物料", "supplies"), ("穆迪", "moody's"), ("标普", "s&p"),
        ("上限", "maximum"), ("评级档次", "category"),
    ],
)
def test_general_vocabulary(chinese, english):
    reading = zh.read(chinese)
    assert reading.english == english
    assert reading.unknown == ()
    assert parse(chinese).words  # content words for the English parser


@pytest.mark.parametrize(
    "chinese, english",
    [
        ("第13(r)条", "Section 13(r)"),  # 第 is a stopword; the number is kept as written
        ("根据《证券交易法》第13(r)条披露的伊朗相关活动", "Iran-related activities disclosed under Section 13(r) of the Exchange Act"),
        ("前36周的净销售额", "net sales for the first 36 weeks"),
        ("前6个月的经营现金流", "operating cash flow for the first 6 months"),
        ("非GAAP调整后每股收益", "non-GAAP adjusted EPS"),  # 非GAAP: the Latin letters are kept
        ("10b5-1交易计划", "10b5-1 trading arrangements"),
        ("以欧元计价的优先票据的实际利率", "the effective interest rate of the euro-denominated senior notes"),
        ("合并协议规定的终止费是多少？", "What is the termination fee under the merger agreement?"),
        ("信贷协议第5.1条", "Section 5.1 of the credit agreement or facility agreement"),
        ("按产品和服务划分的收入", "revenue by product and service offering"),  # ASC 280-10-50-40
        ("按分部划分的商誉", "goodwill by segment"),  # ASC 350-20-50-1
        ("未指定为套期工具的衍生工具的名义金额", "notional amounts of derivatives not designated as hedging instruments"),
    ],
)
def test_a_chinese_question_reads_as_the_english_one(chinese, english):
    """The same content words and cues as the question asked in English."""
    zh_parsed, en_parsed = parse(chinese), parse(english)
    assert sorted(zh_parsed.words) == sorted(en_parsed.words)
    assert set(zh_parsed.cues) == set(en_parsed.cues)
    assert zh_parsed.reading.unknown == ()


# --- Longest match first: what a long entry must not swallow ---------------------------------------


@pytest.mark.parametrize(
    "question, segments",
    [
        # 前 (first) is a word of periods, but not the first character of these
        ("前三大客户", [("前三大", "largest"), ("客户", "customer")]),
        ("前三季度的收入", [("前三季度", "nine months"), ("收入", "revenue")]),  # not 前 + 三季度 (Q3)
        ("前十大客户", [("前十大客户", "largest customer")]),
        ("前瞻性陈述", [("前瞻性陈述", "forward looking statements")]),
        ("前任会计师", [("前任", "predecessor"), ("会计师", "accountant")]),
        ("税前利润", [("税前利润", "income before income taxes")]),
        ("之前的指引", [("指引", "outlook")]),  # 之前 (before) is a stopword, not 之 + 前
        # 终止 (termination) and the longer terms that begin with it
        ("终止费", [("终止费", "termination fee")]),
        ("终止经营业务", [("终止经营业务", "discontinued operations")]),
        ("终止协议", [("终止", "termination"), ("协议", "agreement")]),
        # 发行 (issuance) and the cash-flow captions that begin with it
        ("发行债务", [("发行债务", "proceeds from issuance of debt")]),
        ("发行在外的普通股", [("发行在外", "outstanding"), ("普通股", "common stock")]),
        ("非公开发行", [("非公开发行", "private placement")]),  # not 非 + 公开发行
        # 修订 and 重述 together, and apart
        ("修订并重述的信贷协议", [("修订并重述", "amended and restated"), ("信贷协议", "credit agreement")]),
        ("财务重述", [("财务重述", "restatement")]),
        # rates: 实际利率 is not 实际税率, nor 利率 alone
        ("实际利率和实际税率", [("实际利率", "effective interest rate"), ("实际税率", "effective tax rate")]),
        # options: the put and call options are not stock options
        ("看跌期权和股票期权", [("看跌期权", "put option"), ("股票期权", "stock options")]),
        # 归属于 (attributable to) is not 归属 (vesting)
        ("归属于普通股股东的净利润", [("归属于", "attributable"), ("普通股", "common stock"), ("股东", "shareholders"), ("净利润", "net income")]),
        ("限制性股票单位的归属期", [("限制性股票单位", "restricted stock units"), ("归属期", "vesting")]),
        # 非 (non) is a prefix, not the first character of 非洲 or 非常
        ("非洲", [("非洲", "africa")]),
        ("非常重要的非现金项目", [("非现金", "non cash")]),
        # 条 (section) is not the first character of 条款 or 条件
        ("限制性条款", [("限制性条款", "covenants")]),
        ("先决条件", [("先决条件", "conditions to closing")]),
        ("赎回条款和违约条款", [("赎回条款", "redemption"), ("违约条款", "events of default")]),  # the sections
        # 选举 inside the Item 5.07 terms
        ("董事选举的表决结果", [("董事选举", "election of directors"), ("表决结果", "vote results")]),
        # 交易法 and 交易所: the Act is not the exchange
        ("证券交易法和证券交易所", [("证券交易法", "exchange act"), ("证券交易所", "stock exchange")]),
        ("证券交易委员会", [("证券交易委员会", "sec")]),
        # 基础 (basis) is not the first characters of 基础设施
        ("基础设施", [("基础设施", "infrastructure")]),
        # 合营企业投资 (equity method) stays whole; 合营企业 alone is a joint venture
        ("合营企业投资", [("合营企业投资", "equity method investments")]),
        # 公司债 (corporate bonds) is not the start of 公司债务 (the company's debt)
        ("公司债务总额", [("公司债务", "debt"), ("总额", "total")]),
        ("重大合同义务", [("重大合同义务", "contractual obligations")]),  # not 重大合同 + 义务
        # 在哪 (where) must not take the first character of 哪些 and leave 些 unread
        ("公司主要在哪些地区经营", [("地区", "geographic"), ("经营", "operate")]),
        # 前身 (a predecessor) plus 期 is the predecessor period, not 前 (first) and 身 left unread
        ("前身期和继任期的净收入", [("前身期", "predecessor period"), ("继任期", "successor period"), ("净收入", "net revenue")]),
        ("解决方案业务", [("解决方案", "solutions"), ("业务", "business")]),  # not 解决 + 方案 (a plan)
        ("投资活动现金净流出", [("投资活动", "investing activities"), ("现金净流出", "net cash used")]),
    ],
)
def test_longest_match_keeps_the_right_words(question, segments):
    assert [(s.text, s.english[0]) for s in zh.segment(question) if s.kind == "term"] == segments


@pytest.mark.parametrize(
    "phrase",
    ["在哪些页", "在哪个章节", "在哪一节", "上年度", "报告期末", "本期末", "截至第一季度末", "与之前相比",
     "目前", "非常重要", "三个月", "第5.02项", "前述", "存在哪些"],
)
def test_function_words_leave_nothing_unread(phrase):
    """Stopwords written together, or next to a period word, are read whole: nothing is left as
    unknown Chinese (which would be reported as not read)."""
    assert zh.read(phrase).unknown == ()
