"""The beginner's order ("Start here"): every question's place follows from its topic,
tags, difficulty and kind, and the list and the home page offer it."""

import pytest
from django.urls import reverse

from questions.loader.schema import TOPIC_FOLDERS
from questions.models import ExerciseVersion, Question, Track
from questions.services import browsing

BROWSE = reverse("questions:browse")
FOUNDATION = "Technical Foundation and Self Assessment"
ALGORITHMS = "Algorithmic Complexity & Code-Level Optimization"
COST = "Performance Cost Optimization & Resource Efficiency"


def make(title, topic, difficulty, kind, tags=()):
    return Question.objects.create(
        slug=title.lower().replace(" ", "-"),
        title=title,
        topic=topic,
        difficulty=difficulty,
        kind=kind,
        tags=list(tags),
        prompt=f"{title}?",
    )


@pytest.fixture
def mixed_bank(db):
    # Created in an order unlike the expected one, so the order cannot come from insertion or ids.
    make("Cost hard coding", COST, "hard", "coding")
    make("Algo GPU easy concept", ALGORITHMS, "easy", "concept", ["gpu-kernels"])
    make("Algo medium numeric", ALGORITHMS, "medium", "numeric")
    make("Foundation easy coding", FOUNDATION, "easy", "coding")
    make("Algo easy coding", ALGORITHMS, "easy", "coding")
    make("Foundation hard concept", FOUNDATION, "hard", "concept")
    make("Foundation easy numeric", FOUNDATION, "easy", "numeric")
    make("Algo easy concept", ALGORITHMS, "easy", "concept", ["numpy"])
    make("Foundation easy concept", FOUNDATION, "easy", "concept")
    make("Algo CUDA medium concept", ALGORITHMS, "medium", "concept", ["cuda"])
    make("Cost easy concept", COST, "easy", "concept", ["cloud"])


EXPECTED = [
    "Foundation easy concept",
    "Foundation easy numeric",
    "Foundation easy coding",
    "Foundation hard concept",
    "Algo easy concept",
    "Algo easy coding",
    "Algo medium numeric",  # the CPU material of the topic, easy to hard
    "Algo GPU easy concept",
    "Algo CUDA medium concept",  # then its GPU material
    "Cost easy concept",
    "Cost hard coding",
]


def titles(response):
    return [question.title for question in response.context["browse"].questions]


def test_the_order_goes_topic_then_cpu_before_gpu_then_easy_to_hard_then_concept_numeric_coding(client, mixed_bank):
    response = client.get(BROWSE, {"order": "start"})
    assert response.status_code == 200
    assert titles(response) == EXPECTED
    html = response.content.decode()
    assert "Start here: the whole bank in a suggested order" in html
    assert "Step 1</p>" in html and f"Step {len(EXPECTED)}</p>" in html
    assert 'option value="start" selected' in html


def test_the_default_list_is_not_the_beginners_order_and_links_to_it(client, mixed_bank):
    response = client.get(BROWSE)
    assert titles(response) != EXPECTED
    assert sorted(titles(response)) == sorted(EXPECTED)
    assert f'href="{BROWSE}?order=start"' in response.content.decode()
    assert "Step 1</p>" not in response.content.decode()


def test_filters_keep_the_order(client, mixed_bank):
    response = client.get(BROWSE, {"order": "start", "kind": "concept"})
    assert titles(response) == [title for title in EXPECTED if title.endswith("concept")]
    response = client.get(BROWSE, {"order": "start", "topic": ALGORITHMS, "q": "easy"})
    assert titles(response) == ["Algo easy concept", "Algo easy coding", "Algo GPU easy concept"]


def test_an_unknown_order_is_the_default_one(client, mixed_bank):
    assert titles(client.get(BROWSE, {"order": "bogus"})) == titles(client.get(BROWSE))


def test_every_topic_of_the_bank_has_a_place_in_the_order():
    # A topic added to the one list must be placed in the path, not left to sort after the others by name.
    assert set(browsing.BEGINNER_TOPICS) == set(TOPIC_FOLDERS)


@pytest.mark.parametrize(
    ("tags", "gpu"),
    [
        (["gpu-kernels", "reduction"], True),
        (["cupy"], True),
        (["cuda"], True),
        (["cuda-streams"], True),
        (["gpudirect"], True),
        (["gpu"], True),
        (["numpy", "caches"], False),
        ([], False),
        (None, False),
        (["scuda"], False),
        (["cudax"], False),
    ],
)
def test_gpu_material_is_told_by_its_tags(tags, gpu):
    assert browsing.is_gpu_material(tags) is gpu


def test_the_home_page_links_the_path_and_starts_on_its_first_step(client, mixed_bank):
    html = client.get(reverse("home")).content.decode()
    assert f'href="{BROWSE}?order=start">Start here' in html
    first = Question.objects.get(title=EXPECTED[0])
    assert f'href="/accounts/signup/?next={first.get_absolute_url()}">Start practising' in html


def test_the_home_page_counts_and_first_step_follow_a_change_to_the_bank(client, mixed_bank):
    assert "2 coding exercises" not in client.get(reverse("home")).content.decode()
    assert "3 coding exercises" in client.get(reverse("home")).content.decode()
    make("Foundation easy coding two", FOUNDATION, "easy", "coding")
    newcomer = make("Aardvark foundation concept", FOUNDATION, "easy", "concept")  # sorts first now
    html = client.get(reverse("home")).content.decode()
    assert "4 coding exercises" in html
    assert f'next={newcomer.get_absolute_url()}">Start practising' in html


def test_start_here_begins_with_the_tracks_and_the_default_list_with_cpu_material_easy_first(client, mixed_bank):
    """Issue 32: "Start here" opened on a question that sorted first by title, and the default
    list on a GPU exercise no CPU-only install can grade."""
    Track.objects.create(
        slug="first-steps", name="First steps", position=0, question_slugs=["algo-easy-coding", "cost-easy-concept"]
    )
    on_tracks = ["Algo easy coding", "Cost easy concept"]
    assert titles(client.get(BROWSE, {"order": "start"})) == on_tracks + [t for t in EXPECTED if t not in on_tracks]
    assert browsing.bank_summary().first_question.title == "Algo easy coding"
    assert titles(client.get(BROWSE)) == [
        "Algo easy coding",
        "Algo easy concept",
        "Algo medium numeric",
        "Algo GPU easy concept",
        "Algo CUDA medium concept",
        "Cost easy concept",
        "Cost hard coding",
        "Foundation easy coding",
        "Foundation easy concept",
        "Foundation easy numeric",
        "Foundation hard concept",
    ]


def test_the_list_marks_exercises_graded_on_a_gpu(client, mixed_bank):
    for title, target in (("Algo easy coding", "gpu"), ("Cost hard coding", "cpu")):
        ExerciseVersion.objects.create(
            question=Question.objects.get(title=title),
            number=1,
            spec={"target": target, "entry_point": "f", "sizes": [1]},
            content_hash=title,
            reference_code="",
            starter_code="",
            inputs_code="",
            solution_code="",
        )
    cards = client.get(BROWSE).content.decode().split('<li class="card">')[1:]
    marked = [card.split("</a></h2>")[0].rsplit(">", 1)[1] for card in cards if "badge-gpu" in card]
    assert marked == ["Algo easy coding"]
