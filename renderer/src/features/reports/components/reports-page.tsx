// The Security Reports page (docs/product.md §2): tabs Generated Reports and Report Configuration.
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { GeneratedReportsList } from './generated-reports-list.tsx';
import { ReportConfigurationsList } from './report-configurations-list.tsx';

export function ReportsPage({ userId }: { userId: string }) {
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">Security Reports</h1>
      <Tabs defaultValue="generated">
        <TabsList>
          <TabsTrigger value="generated">Generated Reports</TabsTrigger>
          <TabsTrigger value="configuration">Report Configuration</TabsTrigger>
        </TabsList>
        <TabsContent value="generated">
          <GeneratedReportsList userId={userId} />
        </TabsContent>
        <TabsContent value="configuration">
          <ReportConfigurationsList userId={userId} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
