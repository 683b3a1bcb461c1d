import type { ClientToolReading } from '../../answers/client-tools.js';
import { openAIChatClientTools } from '../openai-chat/client-tools.js';

/** Copilot's wire is chat completions: tools and tool results are declared the same way. */
export const copilotClientTools: ClientToolReading = openAIChatClientTools;
