// The CLI's check() in a worker thread, so that cli-check.mjs can stop it at the time limit (a synchronous
// reader cannot be interrupted from its own thread). Posts {reading: path|null} before each file, then {report}.
import { parentPort, workerData } from 'node:worker_threads';
import '../engine/index.mjs'; // installs the text catalog
import { check } from './index.mjs';

const { inputs, answers, date } = workerData;
const { bundle, ...report } = check(inputs, { answers, date, onRead: (path) => parentPort.postMessage({ reading: path }) });
// reportJson lists the generated paths only; the contents stay here.
parentPort.postMessage({ report: { ...report, bundle: { files: bundle.files.map((f) => ({ path: f.path })) } } });
