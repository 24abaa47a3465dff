from __future__ import annotations

from marshmallow import fields, validate

from core.projects.model import MAX_MOVE, NAME_MAX, REMARK_MAX, clean_name, name_problem, remark_problem
from entrypoints.api.devices.schemas import DEVICE_ID
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema
from entrypoints.api.validators import rule

Length, Range = validate.Length, validate.Range
MAX_ID = 2**31 - 1
PROJECT_ID = fields.Integer(required=True, validate=Range(1, MAX_ID))
# The core's rules, on the trimmed name; the length bound first, so a huge value costs nothing.
NAME = fields.String(
    required=True, validate=[Length(max=NAME_MAX * 5), rule(lambda v: name_problem(clean_name(v)))],
    metadata={"description": f"2 to {NAME_MAX} characters once trimmed, no emoji nor control characters; unique "
                             "among the caller's projects whatever the case"})
REMARK = fields.String(allow_none=True, validate=[Length(max=REMARK_MAX), rule(remark_problem)],
                       metadata={"description": "optional note; empty or null is none; left out of an update, it "
                                                "stays as it was"})


class ProjectInputSchema(Schema):
    projectName = NAME
    remark = REMARK


class ProjectInsertSchema(ProjectInputSchema):
    organizationId = fields.Integer(allow_none=True, validate=Range(1, MAX_ID), metadata={
        "description": "one of the caller's organizations where it changes devices (its creator or an "
                       "administrator): the project is the organization's; null or left out: the caller's own. "
                       "Not changed later"})


class ProjectUpdateSchema(ProjectInputSchema):
    id = PROJECT_ID


class ProjectIdQuery(Schema):
    id = PROJECT_ID


class ProjectPageQuery(PageQuery):
    sortField = fields.String(validate=validate.OneOf(["projectName"]), metadata={"description": "by name"})
    projectName = fields.String(validate=Length(1, NAME_MAX * 5), metadata={
        "description": "part of the name, any case"})


class ProjectSchema(Schema):
    id = fields.Integer(required=True)
    projectName = fields.String(required=True)
    remark = fields.String(required=True, allow_none=True)
    createdAt = LocalDateTime(required=True)
    deviceCount = fields.Integer(required=True, metadata={"description": "its devices the caller sees"})
    onlineCount = fields.Integer(required=True, metadata={"description": "of those, online now (in service)"})
    alarmCount = fields.Integer(required=True, metadata={"description": "of those, alarming now (in service)"})
    organizationId = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the organization it belongs to; null: the caller's own"})
    organizationName = fields.String(required=True, allow_none=True)
    changeable = fields.Boolean(required=True, metadata={
        "description": "the caller may rename and delete it and move devices into it (false: a read-only member "
                       "of its organization)"})


class ProjectDeletedSchema(Schema):
    released = fields.Integer(required=True, metadata={"description": "devices that were in it, now in none"})


class ChangeProjectSchema(Schema):
    deviceIds = fields.List(DEVICE_ID, required=True, validate=Length(1, MAX_MOVE), metadata={
        "description": f"1 to {MAX_MOVE} device ids (a repeated id counts once), each the caller's to change"})
    projectId = fields.Integer(required=True, allow_none=True, validate=Range(1, MAX_ID), metadata={
        "description": "a project the caller may change, of the devices' owner: an organization's devices go "
                       "only into its projects, devices in no organization only into personal ones (422 on "
                       "projectId otherwise); null takes the devices out of any project"})


class ProjectChangedSchema(Schema):
    moved = fields.Integer(required=True, metadata={"description": "devices now in the project (or in none)"})
