"""Projects (issue 17, /project/list): an account's named groups of devices. A project is its
creator's: only they list, use, rename and delete it (an organization's projects come later).
A device is in at most one project; whoever may change a device may move it into one of their
own projects or out of any."""

from __future__ import annotations

from flask.views import MethodView

from core.projects.model import Project
from core.projects.use_cases import ProjectInput
from entrypoints.api import context
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request
from entrypoints.api.projects import schemas as s

blp = ApiBlueprint("projects", __name__, description="Projects: groups of devices")

PERMISSION = "project.list"
NOT_OWN = "no such project, or another account's (the same answer, so ids cannot be probed)"


def _caller() -> int:
    return context.current_principal().account_id


def _input(body: dict) -> ProjectInput:
    return ProjectInput(body["projectName"], body.get("remark"))


def _row(p: Project) -> dict:
    return {"id": p.id, "projectName": p.name, "remark": p.remark, "createdAt": p.created_at,
            "deviceCount": p.device_count, "onlineCount": p.online_count, "alarmCount": p.alarm_count}


@blp.route("/Project/page")
class ProjectPageView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.ProjectPageQuery)
    @blp.ok(page_of(s.ProjectSchema))
    def post(self, body):
        """The caller's projects by name (any case), with how many of their devices the caller sees,
        are online and alarming. A project's devices are Device/page with its projectId."""
        page = context.container().list_projects()(_caller(), body.get("projectName"), page_request(body))
        return page_body(page, _row)


@blp.route("/Project/get")
class ProjectView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.ProjectIdQuery, location="query")
    @blp.ok(s.ProjectSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def get(self, query):
        """One of the caller's projects, with its counts."""
        return _row(context.container().get_project()(_caller(), query["id"]))


@blp.route("/Project/insert")
class ProjectInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.ProjectInputSchema)
    @blp.ok(s.ProjectSchema)
    def post(self, body):
        """Make a project, empty. The name is trimmed; a name the caller already has in any case is
        refused (422 on projectName)."""
        return _row(context.container().create_project()(_caller(), _input(body)))


@blp.route("/Project/update")
class ProjectUpdateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.ProjectUpdateSchema)
    @blp.ok(s.ProjectSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def put(self, body):
        """Rename a project or change its remark, by the insert's rules."""
        return _row(context.container().update_project()(_caller(), body["id"], _input(body),
                                                         keep_remark="remark" not in body))


@blp.route("/Project/delete")
class ProjectDeleteView(MethodView):
    @blp.requires(f"{PERMISSION}:delete")
    @blp.arguments(s.ProjectIdQuery, location="query")
    @blp.ok(s.ProjectDeletedSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def delete(self, query):
        """Delete a project; its devices stay as they are, in no project."""
        return {"released": context.container().delete_project()(_caller(), query["id"])}


@blp.route("/Device/changeProject")
class ChangeProjectView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description="the caller may only read one of the devices (a "
                      "member of its organization), or lacks the permission: then none moves")
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.ChangeProjectSchema)
    @blp.ok(s.ProjectChangedSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_OWN}; or a device the caller may not see: then "
                                                             "none moves")
    def post(self, body):
        """Move devices into one of the caller's projects, or out of any (projectId null), all or
        none: a device leaves the project it was in. Each must be the caller's to change."""
        return {"moved": context.container().change_project()(_caller(), body["deviceIds"], body["projectId"])}
