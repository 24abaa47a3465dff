"""Scenes: the main console (1) and the cloud-chain console (2), spec seed 000 section 4."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from core.permissions import catalogue as c
from core.shared.messages import N_

DEFAULT_SCENE = c.MAIN


@dataclass(frozen=True)
class Scene:
    scene_type: int
    name: str


SCENES = {
    c.MAIN: Scene(c.MAIN, N_("Cold-chain monitoring")),
    c.CLOUD_CHAIN: Scene(c.CLOUD_CHAIN, N_("Cloud chain")),
}


def scene_permissions(scene_id: int, held: Iterable[str]) -> list[str]:
    """The caller's permissions that belong to the scene, sorted."""
    return sorted(n for n in set(held) if n in c.BY_NAME and scene_id in c.BY_NAME[n].scenes)


def available_scenes(held: Iterable[str]) -> list[Scene]:
    """Scene 1 always; scene 2 only for a caller who could enter it."""
    held = set(held)
    scenes = [SCENES[c.MAIN]]
    if c.MY_PROJECT in held:
        scenes.append(SCENES[c.CLOUD_CHAIN])
    return scenes


def effective_scene(requested: int, permissions_of_requested: Iterable[str]) -> int:
    """Scene 2 needs cloudChain.myProject; without it the console falls back to scene 1."""
    if requested == c.CLOUD_CHAIN and c.MY_PROJECT not in set(permissions_of_requested):
        return c.MAIN
    if requested not in SCENES:
        return DEFAULT_SCENE
    return requested
