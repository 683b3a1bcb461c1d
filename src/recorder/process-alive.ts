export { processAlive } from '../util/process-alive.js';
