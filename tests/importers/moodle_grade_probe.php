<?php
// How Moodle grades the fractions it stored for a question's answers: question_state's
// graded_state_for_fraction, as the question engine calls it on a response's fraction, printed
// as JSON [[answer, fraction, state], ...].
// Usage: php moodle_grade_probe.php MOODLE_SRC QUESTION_ID (with the harness's MOODLE_HARNESS_* set).
define('CLI_SCRIPT', true);
require(rtrim($argv[1], '/') . '/config.php');
require_once($CFG->dirroot . '/question/engine/lib.php');
$rows = [];
foreach ($DB->get_records('question_answers', ['question' => (int) $argv[2]], 'id') as $answer) {
    $rows[] = [$answer->answer, (float) $answer->fraction, (string) question_state::graded_state_for_fraction($answer->fraction)];
}
echo json_encode($rows), "\n";
