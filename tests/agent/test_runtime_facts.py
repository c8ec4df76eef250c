"""What each runtime module declares of itself, checked without running a CLI."""

from __future__ import annotations

import pytest

from harness.agent import RUNTIMES, model_environment
from harness.agent.runtimes import AGENT_CLASSES


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_variables_choosing_model_and_endpoint_name_the_endpoint_and_no_credential(runtime):
    facts = AGENT_CLASSES[runtime]
    chosen = model_environment(runtime)
    assert facts.endpoint_var in chosen
    assert not set(chosen) & set(facts.credential_vars)  # a key is a digest anyone can recompute
    assert not [name for name in chosen if name.endswith(("_KEY", "_TOKEN", "_SECRET"))]


def test_a_name_that_is_no_runtime_chooses_nothing():
    assert model_environment("unknown") == ()
