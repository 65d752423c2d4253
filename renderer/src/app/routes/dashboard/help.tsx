import { BookOpen, Mail, MessageCircle } from 'lucide-react';

import { SUPPORT_EMAIL } from '../../../../../shared/constants.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';

export function Component() {
  useDocumentTitle('Help');
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">Help &amp; Support</h1>
      <div className="grid gap-4 md:grid-cols-3">
        <Card>
          <CardHeader>
            <MessageCircle className="size-8 text-primary" aria-hidden />
            <CardTitle className="text-lg">Live Chat Support</CardTitle>
            <CardDescription>Talk to our security team in real time.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button className="w-full">Start Chat</Button>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <Mail className="size-8 text-primary" aria-hidden />
            <CardTitle className="text-lg">Email Support</CardTitle>
            <CardDescription>Send us the details and we will get back to you.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button className="w-full" variant="outline" asChild>
              <a href={`mailto:${SUPPORT_EMAIL}`}>Send Email</a>
            </Button>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <BookOpen className="size-8 text-primary" aria-hidden />
            <CardTitle className="text-lg">Documentation</CardTitle>
            <CardDescription>Guides for agents, scans and reports.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button className="w-full" variant="outline">
              View Docs
            </Button>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
