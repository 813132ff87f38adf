<?php
// Moodle's own cloze parser (qtype_multianswer_extract_question) on a question text: prints, as
// JSON, each sub-question's alternatives as Moodle would store them: [answer, fraction, feedback].
// Usage: php moodle_cloze_probe.php MOODLE_SRC TEXT_FILE (with the harness's MOODLE_HARNESS_* set).
define('CLI_SCRIPT', true);
require(rtrim($argv[1], '/') . '/config.php');
require_once($CFG->dirroot . '/question/type/multianswer/questiontype.php');
$question = qtype_multianswer_extract_question(['text' => file_get_contents($argv[2]), 'format' => FORMAT_HTML, 'itemid' => '']);
$found = [];
foreach ($question->options->questions as $key => $wrapped) {
    $alternatives = [];
    foreach ($wrapped->answer as $index => $answer) {
        $alternatives[] = [is_array($answer) ? $answer['text'] : $answer, (float) $wrapped->fraction[$index], $wrapped->feedback[$index]['text']];
    }
    $found[] = $alternatives;
}
echo json_encode($found), "\n";
