/** The model id the server lists and answers with when a request names none. */
export const scriptedModelId = 'scripted-model';
