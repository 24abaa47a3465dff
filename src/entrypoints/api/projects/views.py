"""Projects (issue 17, /project/list): named groups of devices, an account's own or an
organization's. An account's own project is its alone; an organization's is read by its members
and changed (renamed, deleted, filled) by those who change its devices, its creator and
administrators. A device is in at most one project, of its own owner's kind."""

from __future__ import annotations

from flask.views import MethodView

from core.projects.model import Project
from core.projects.use_cases import ProjectInput
from entrypoints.api import context
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request
from entrypoints.api.projects import schemas as s

blp = ApiBlueprint("projects", __name__, description="Projects: groups of devices")

PERMISSION = "project.list"
NOT_OWN = ("no such project, or one the caller does not see: another account's, or an organization's it is not "
           "in (the same answer, so ids cannot be probed)")
READ_ONLY = "an organization's project the caller only reads (a read-only member): nothing changes"



def _input(body: dict) -> ProjectInput:
    return ProjectInput(body["projectName"], body.get("remark"), body.get("organizationId"))


def _row(p: Project) -> dict:
    return {"id": p.id, "projectName": p.name, "remark": p.remark, "createdAt": p.created_at,
            "deviceCount": p.device_count, "onlineCount": p.online_count, "alarmCount": p.alarm_count,
            "organizationId": p.organization_id, "organizationName": p.organization_name, "changeable": p.changeable}


@blp.route("/Project/page")
class ProjectPageView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.ProjectPageQuery)
    @blp.ok(page_of(s.ProjectSchema))
    def post(self, body):
        """The caller's own projects and those of its organizations, by name (any case), with how many
        of their devices the caller sees, are online and alarming. A project's devices are
        Device/page with its projectId."""
        page = context.container().list_projects()(context.caller_id(), body.get("projectName"), page_request(body))
        return page_body(page, _row)


@blp.route("/Project/get")
class ProjectView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.ProjectIdQuery, location="query")
    @blp.ok(s.ProjectSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def get(self, query):
        """A project the caller sees, with its counts."""
        return _row(context.container().get_project()(context.caller_id(), query["id"]))


@blp.route("/Project/insert")
class ProjectInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.ProjectInsertSchema)
    @blp.ok(s.ProjectSchema)
    def post(self, body):
        """Make a project, empty: the caller's own, or one of an organization where the caller changes
        devices (422 on organizationId otherwise). The name is trimmed; a name its owner (the
        caller, or the organization) already has in any case is refused (422 on projectName)."""
        return _row(context.container().create_project()(context.caller_id(), _input(body)))


@blp.route("/Project/update")
class ProjectUpdateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.ProjectUpdateSchema)
    @blp.ok(s.ProjectSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    def put(self, body):
        """Rename a project or change its remark, by the insert's rules."""
        return _row(context.container().update_project()(context.caller_id(), body["id"], _input(body),
                                                         keep_remark="remark" not in body))


@blp.route("/Project/delete")
class ProjectDeleteView(MethodView):
    @blp.requires(f"{PERMISSION}:delete")
    @blp.arguments(s.ProjectIdQuery, location="query")
    @blp.ok(s.ProjectDeletedSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    def delete(self, query):
        """Delete a project; its devices stay as they are, in no project."""
        return {"released": context.container().delete_project()(context.caller_id(), query["id"])}


@blp.route("/Device/changeProject")
class ChangeProjectView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description="the caller may only read one of the devices (a "
                      "member of its organization) or the project, or lacks the permission: then none moves")
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.ChangeProjectSchema)
    @blp.ok(s.ProjectChangedSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_OWN}; or a device the caller may not see: then "
                                                             "none moves")
    def post(self, body):
        """Move devices into a project the caller may change, or out of any (projectId null), all or
        none: a device leaves the project it was in. Each must be the caller's to change, and of
        the project's owner's kind: an organization's device into that organization's projects, a
        device in no organization into personal ones."""
        moved = context.container().change_project()(context.caller_id(), body["deviceIds"], body["projectId"])
        return {"moved": moved}
