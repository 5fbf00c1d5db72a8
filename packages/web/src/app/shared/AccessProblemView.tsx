import { Alert, Button, Center, Code, Stack, Text } from '@mantine/core';
import { describeProblem, isShareProblem, type AccessProblem } from './access.js';

/**
 * Shown instead of the UI when the host will not let this browser connect, saying why. A dead
 * share link gets its own page: what happened and whom to ask, no token advice, no Retry (it
 * would only be refused again).
 */
export function AccessProblemView({ problem }: { problem: AccessProblem }): React.JSX.Element {
  const { title, detail } = describeProblem(problem);
  if (isShareProblem(problem))
    return (
      <Center h="100vh" p="md" component="main">
        <Alert
          color="gray"
          variant="outline"
          title={title}
          maw={560}
          data-testid="share-ended"
          data-problem={problem.kind}
        >
          <Text size="sm">{detail}</Text>
        </Alert>
      </Center>
    );
  return (
    <Center h="100vh" p="md">
      <Alert color="red" title={title} maw={560} data-testid="access-problem" data-problem={problem.kind}>
        <Stack gap="sm">
          <Text size="sm">{detail}</Text>
          {problem.kind === 'unavailable' ? null : (
            <Text size="sm" c="dimmed">
              On the host machine: <Code>strand serve --host … --token …</Code> prints the link.
            </Text>
          )}
          <Button variant="light" color="red" onClick={() => window.location.reload()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    </Center>
  );
}
