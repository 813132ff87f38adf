<?php
// What Moodle shows of a text: format_text as the question bank's category list calls it on a
// category's info (qbank_managecategories\output\category: noclean), printed as JSON.
// Usage: php moodle_format_probe.php MOODLE_SRC JSON_FILE, the file holding [text, format]
// (with the harness's MOODLE_HARNESS_* set).
define('CLI_SCRIPT', true);
require(rtrim($argv[1], '/') . '/config.php');
[$text, $format] = json_decode(file_get_contents($argv[2]), true);
$PAGE->set_context(context_system::instance());
echo json_encode(format_text($text, $format, ['context' => context_system::instance(), 'noclean' => true])), "\n";
