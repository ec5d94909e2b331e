import { configure } from '@testing-library/react';

// The suite runs on shared, loaded machines: a re-render after a fetch can take seconds there. Queries that wait
// (findBy*, waitFor) wait on the condition for up to 10 s instead of Testing Library's 1 s default.
configure({ asyncUtilTimeout: 10_000 });
