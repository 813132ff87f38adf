<?php
// Moodle's own format_text on stored texts, with the site's filters (MathJax's among them), as a
// question shows them: question_definition::format_text passes noclean and no paragraph.
// Usage: php moodle_filter_probe.php MOODLE_SRC TEXTS_JSON (a list of [text, format number]),
// with the harness's MOODLE_HARNESS_* set; prints the list of HTML Moodle sends to the browser.
define('CLI_SCRIPT', true);
require(rtrim($argv[1], '/') . '/config.php');
$PAGE->set_context(context_system::instance());
$PAGE->set_url('/');
$shown = [];
foreach (json_decode(file_get_contents($argv[2]), true) as [$text, $format]) {
    $shown[] = format_text($text, (int) $format, ['noclean' => true, 'para' => false]);
}
echo json_encode(['active' => array_keys(filter_get_active_in_context(context_system::instance())), 'shown' => $shown]), "\n";
