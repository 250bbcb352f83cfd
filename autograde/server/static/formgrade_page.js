// The grading page's own values and behaviour, moved out of nbgrader's inline scripts so that the page can forbid
// every inline script (Content-Security-Policy): formgrader's scripts read these globals when they load.
(function () {
  "use strict";
  var data = document.currentScript.dataset;
  window.submission_id = data.submissionId;
  window.notebook_id = data.notebookId;
  window.assignment_id = data.assignmentId;
  window.base_url = data.baseUrl;

  function toggleName(on) {
    $(".name-shown").tooltip("hide").toggle(on);
    $(".name-hidden").tooltip("hide").toggle(!on);
  }
  window.toggle_name = toggleName;

  $(document).ready(function () {
    $("[data-link]").each(function () {
      $(this).map(linkTo("notebook", $(this).data("link"))).removeAttr("data-link");
    });
    $("span.glyphicon.name-hidden").tooltip({title: "Show student name", placement: "bottom", trigger: "hover"});
    $("span.glyphicon.name-shown").tooltip({title: "Hide student name", placement: "bottom", trigger: "hover"});
    $("[data-show-name]").on("click", function () { toggleName($(this).data("show-name") === true); });
  });
}());
